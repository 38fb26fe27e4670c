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
        let head: (seq: Int64, hash: String) = (last?["seq"] ?? 0, last?["hash"] ?? LedgerEvent.genesisHash)
        let (event, value) = try LedgerEvent.following(head, kind: kind, hunt: hunt, actor: actor, at: time, body: makeBody)
        // A cached statement bound directly: GRDB's record insert encodes the struct through
        // Encodable first, and its arguments box every value.
        try db.execute(db.cached("""
            INSERT INTO events (seq, time_ms, hunt, actor, kind, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """), binding: [.integer(event.seq), .integer(event.timeMs), .text(hunt), .text(actor), .text(kind.rawValue),
                         .text(event.body), .text(event.prevHash), .text(event.hash)])
        try StateProjection.apply(event, decoded: value, db)
        return event
    }
}
