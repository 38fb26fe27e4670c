import Foundation
import GRDB
import GRDBSQLite
import GeoQR

extension SQLiteGameStore {
    public var rules: LedgerRules {
        LedgerRules(pinCost: configuration.pinCost, pinPolicy: configuration.pinPolicy, scoring: configuration.scoring)
    }

    /// Runs the act in the next group commit, in its own savepoint: facts are read as asked, on
    /// the writer's connection.
    public func perform<Answer: Sendable>(_ act: LedgerAct<Answer>) async throws -> Answer {
        try await write { db in
            let facts = SQLiteFacts(db: db)
            let decision = try act.decide(facts)
            var appended: [AppendedEvent] = []
            appended.reserveCapacity(decision.events.count)
            for event in decision.events { appended.append(try EventAppender.append(db, event)) }
            try db.run(decision.privateWrites(appended))
            return try decision.answer(facts, appended)
        }
    }

    public func query<Answer: Sendable>(_ read: LedgerRead<Answer>) async throws -> Answer {
        try await self.read { db in try read.read(SQLiteFacts(db: db)) }
    }

    public func scrub() async throws {
        // Readers still on an older snapshot keep the log from emptying: then it is emptied by
        // the next checkpoint that can, and truncated by the next scrub.
        do {
            try await pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch { throw LedgerError.from(error, path: path) }
    }

    public func verify() async throws -> LedgerVerification {
        try await read { db in try LedgerVerifier.verify(db) }
    }

    /// SQLite cannot tell one process of another's writes: nil (see ``GameStore/notices()``).
    public func notices() -> AsyncStream<StoreNotice>? { nil }

    /// One server on one file: no one else to tell.
    public func publish(news: String) async throws {}
}

/// Facts read at once, on the connection the act or read runs on, through SQLite's C interface
/// and the connection's statement cache.
struct SQLiteFacts: FactReader {
    let db: Database

    var dialect: SQLDialect { .sqlite }

    func rows(_ sql: String, _ arguments: [LedgerValue]) throws -> [LedgerRow] {
        try db.rows(try db.cachedStatement(sql: sql), binding: arguments)
    }

    /// In one statement after the player's: every claim asks these.
    func claimFacts(_ key: ClaimKey) throws -> ClaimFacts {
        guard let player = try resolve(hunt: key.hunt, key.player) else {
            return ClaimFacts(player: nil, sentBefore: false, existingFind: nil, disabled: false, foundBefore: false,
                              holdsCard: false, trailFinds: [])
        }
        let values: [LedgerValue] = [.text(key.hunt), .text(player), .text(key.cache), .text(key.claimID)]
        var facts = try db.firstRow(db.cachedStatement(sql: """
            SELECT (SELECT id FROM finds WHERE hunt = ?1 AND player_id = ?2 AND cache_id = ?3 AND voided = 0),
                   COALESCE((SELECT disabled FROM cache_flags WHERE hunt = ?1 AND cache_id = ?3), 0),
                   EXISTS (SELECT 1 FROM finds WHERE hunt = ?1 AND cache_id = ?3 AND voided = 0),
                   EXISTS (SELECT 1 FROM items WHERE hunt = ?1 AND kind = 'card' AND owner_id = ?2 AND cache_id = ?3),
                   ?4 <> '' AND EXISTS (SELECT 1 FROM claim_ids WHERE hunt = ?1 AND player_id = ?2 AND claim_id = ?4)
            """), binding: values) { row in
            (existing: row.text(0), facts: ClaimFacts(player: player, sentBefore: row.bool(4), existingFind: nil,
                                                      disabled: row.bool(1), foundBefore: row.bool(2),
                                                      holdsCard: row.bool(3), trailFinds: []))
        }!
        if let id = facts.existing { facts.facts.existingFind = try find(id: id) }
        // Only trails need the order of earlier finds, and only of their own caches.
        if !key.trailCaches.isEmpty {
            facts.facts.trailFinds = try rows("""
                SELECT cache_id, time_ms FROM finds WHERE hunt = ? AND player_id = ? AND voided = 0
                AND cache_id IN \(dialect.jsonTextList) ORDER BY seq
                """, key.hunt, player, try BodyCoding.encode(key.trailCaches))
                .map { TrailFind(cache: $0["cache_id"], timeMs: $0["time_ms"]) }
        }
        return facts.facts
    }

    /// The id of the player a claim names: the id alone, without the whole row, first.
    private func resolve(hunt: String, _ named: String) throws -> String? {
        if let id = try db.firstRow(db.cachedStatement(sql: "SELECT id FROM players WHERE hunt = ? AND id = ?"),
                                    binding: [.text(hunt), .text(named.uppercased())], { $0.text(0) }) ?? nil {
            return id
        }
        return try playerRow(hunt: hunt, named: named)?["id"]
    }
}

/// Appends events inside SQLite's write transaction: links each to the last one by hash and
/// applies it to the derived tables before the transaction commits.
enum EventAppender {
    /// Appends an act's event, linked to the last one.
    static func append(_ db: Database, _ event: NewEvent) throws -> AppendedEvent {
        let last = try Row.fetchOne(db.cached("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1"))
        let head: (seq: Int64, hash: String) = (last?["seq"] ?? 0, last?["hash"] ?? LedgerEvent.genesisHash)
        let appended = try event.link(head)
        let e = appended.event
        // A cached statement bound directly: GRDB's record insert encodes the struct through
        // Encodable first, and its arguments box every value.
        try db.execute(db.cached("""
            INSERT INTO events (seq, time_ms, hunt, actor, kind, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """), binding: [.integer(e.seq), .integer(e.timeMs), .text(e.hunt), .text(e.actor), .text(e.kind),
                         .text(e.body), .text(e.prevHash), .text(e.hash)])
        try StateProjection.apply(e, decoded: appended.body, db)
        return appended
    }
}
