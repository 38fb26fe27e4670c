import Foundation
import GRDB

/// Appends events inside a write transaction: links each to the last one by hash and applies
/// it to the derived tables before the transaction commits.
enum EventAppender {
    /// The seq the next event will get.
    static func nextSeq(_ db: Database) throws -> Int64 {
        (try Int64.fetchOne(db.cached("SELECT MAX(seq) FROM events")) ?? 0) + 1
    }

    /// Appends an event whose body may use its own seq (ids like `F42` are made from it).
    @discardableResult
    static func append<Body: Encodable & Sendable>(_ db: Database, kind: EventKind, hunt: String, actor: String,
                                        at time: Date, body makeBody: (Int64) throws -> Body) throws -> LedgerEvent {
        let last = try Row.fetchOne(db.cached("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1"))
        let seq: Int64 = (last?["seq"] ?? 0) + 1
        let prevHash: String = last?["hash"] ?? LedgerEvent.genesisHash
        let value = try makeBody(seq)
        let body = try BodyCoding.encode(value)
        let timeMs = time.millisecondsSince1970
        let hash = EventHash.compute(seq: seq, timeMs: timeMs, hunt: hunt, actor: actor,
                                     kind: kind.rawValue, body: body, prevHash: prevHash)
        let event = LedgerEvent(seq: seq, timeMs: timeMs, hunt: hunt, actor: actor, kind: kind.rawValue,
                                body: body, prevHash: prevHash, hash: hash)
        // A cached statement bound directly: GRDB's record insert encodes the struct through
        // Encodable first, and its arguments box every value.
        try db.execute(db.cached("""
            INSERT INTO events (seq, time_ms, hunt, actor, kind, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """), binding: [.integer(seq), .integer(timeMs), .text(hunt), .text(actor), .text(kind.rawValue),
                         .text(body), .text(prevHash), .text(hash)])
        try StateProjection.apply(event, decoded: value, db)
        return event
    }
}
