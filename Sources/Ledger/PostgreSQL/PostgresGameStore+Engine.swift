import Foundation
import GeoQR
import PostgresNIO

extension PostgresGameStore {
    public var rules: LedgerRules {
        LedgerRules(pinCost: configuration.pinCost, pinPolicy: configuration.pinPolicy, scoring: configuration.scoring)
    }

    /// Runs the act in the next group commit. Its facts are read as it asks for them, each a
    /// round trip (after the batch's writes held back so far), and the act runs again with them;
    /// its events go to the transaction's write buffer.
    public func perform<Answer: Sendable>(_ act: LedgerAct<Answer>) async throws -> Answer {
        try await write(claim: act.claim) { tx in
            let facts = PostgresFacts(sql: tx.sql, transaction: tx)
            let decision = try await facts.replaying { try act.decide($0) }
            var appended: [AppendedEvent] = []
            for event in decision.events { appended.append(try tx.append(event)) }
            tx.buffer.add(decision.privateWrites(appended))
            if let key = act.claim, let player = appended.first?.event.actor {
                let find = appended.first?.body as? FindRecorded
                tx.claims.recorded(key, player: player, findTimeMs: find?.claim.time.millisecondsSince1970)
            }
            guard !appended.isEmpty else { return try await facts.replaying { try decision.answer($0, appended) } }
            let after = PostgresFacts(sql: tx.sql, transaction: tx)
            return try await after.replaying { try decision.answer($0, appended) }
        }
    }

    /// Runs the read on a pooled connection; a read that must agree with itself in one snapshot.
    public func query<Answer: Sendable>(_ read: LedgerRead<Answer>) async throws -> Answer {
        try await self.read(snapshot: read.consistent) { sql in
            try await PostgresFacts(sql: sql, transaction: nil).replaying { try read.read($0) }
        }
    }
}

/// Facts as PostgreSQL's engine reads them: asynchronously, so an act asks, is told
/// ``NeedFact``, and runs again once the engine has read it. Every fact read is kept for the
/// act's next run.
final class PostgresFacts: FactReader {
    let sql: PostgresSQL
    /// The group commit's transaction, for a claim's facts (read for the batch together).
    let transaction: PostgresTransaction?
    private var known: [FactQuery: [LedgerRow]] = [:]
    private var claims: [ClaimKey: ClaimFacts] = [:]

    init(sql: PostgresSQL, transaction: PostgresTransaction?) {
        self.sql = sql
        self.transaction = transaction
    }

    var dialect: SQLDialect { .postgres }

    func rows(_ sql: String, _ arguments: [LedgerValue]) throws -> [LedgerRow] {
        let query = FactQuery(sql: sql, arguments: arguments)
        guard let rows = known[query] else { throw NeedFact.rows(query) }
        return rows
    }

    func claimFacts(_ key: ClaimKey) throws -> ClaimFacts {
        guard let facts = claims[key] else { throw NeedFact.claim(key) }
        return facts
    }

    /// Runs `body` until it has every fact it asks for.
    func replaying<T>(_ body: (PostgresFacts) throws -> T) async throws -> T {
        while true {
            do {
                return try body(self)
            } catch let need as NeedFact {
                switch need {
                case .rows(let query):
                    known[query] = try await sql.fetch(query.sql, query.arguments)
                case .claim(let key):
                    guard let transaction else { preconditionFailure("a claim's facts are read in a write") }
                    claims[key] = try await PostgresGameStore.claimFacts(transaction, key)
                }
            }
        }
    }
}

extension PostgresGameStore {
    /// What the rules need to judge a claim: read for every claim of the batch at once when the
    /// batch's first claim asks, and from then on answered from memory while nothing the batch
    /// wrote could have changed them (``ClaimFactsCache``); a claim alone, or one whose facts are
    /// stale, reads its own.
    static func claimFacts(_ tx: PostgresTransaction, _ key: ClaimKey) async throws -> ClaimFacts {
        if let facts = tx.claims.facts(for: key) { return facts }
        if let keys = tx.claims.keysToReadTogether(for: key) {
            tx.claims.remember(try await fetchClaimFacts(tx.sql, keys))
            if let facts = tx.claims.facts(for: key) { return facts }
        }
        return try await fetchClaimFacts(tx.sql, [key])[key]!
    }

    /// The facts of several claims in one query: the player they name, whether a claim of theirs
    /// with the same id came before, the player's live find of the cache, whether the cache is disabled or
    /// was found by anyone, whether the player holds its card, and the player's finds on its trails.
    static func fetchClaimFacts(_ sql: PostgresSQL, _ keys: [ClaimKey]) async throws -> [ClaimKey: ClaimFacts] {
        var binds = PostgresBindings(capacity: 6)
        binds.append(keys.map(\.hunt))
        binds.append(keys.map { $0.player.uppercased() })
        binds.append(keys.map { PlayerName.key($0.player) })
        binds.append(keys.map(\.cache))
        binds.append(keys.map(\.claimID))
        binds.append(try keys.map { try BodyCoding.encode($0.trailCaches) })
        // Each fact a LATERAL lookup with LIMIT 1: the planner then probes the indexes once a
        // claim. As EXISTS it may hash the whole of finds or items for every batch instead (it
        // cannot know how few claims the arrays hold), which grows with the ledger. Lookups
        // of a player's finds name hunt, cache and player (the trail's one by one, each with LIMIT
        // 1 so they are not joined in bulk): every column of either index that holds them, so a
        // planner misled by stale statistics (a ledger that grew fast) still reads only those rows.
        let query = PostgresQuery(unsafeSQL: """
            SELECT k.i, p.id AS resolved, c.yes IS NOT NULL AS sent_before, COALESCE(cf.disabled, 0) AS disabled,
                   fb.yes IS NOT NULL AS found_before, hc.yes IS NOT NULL AS holds_card, tf.list AS trail_finds, f.*
            FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
                 WITH ORDINALITY AS k(hunt, upper_id, name_key, cache, claim_id, trail, i)
            LEFT JOIN LATERAL (SELECT id FROM (SELECT id, 0 AS rank FROM players WHERE id = k.upper_id AND hunt = k.hunt
                                                UNION ALL
                                                SELECT id, 1 FROM players WHERE hunt = k.hunt AND name_key = k.name_key) named
                               ORDER BY rank LIMIT 1) p ON true
            LEFT JOIN LATERAL (SELECT 1 AS yes FROM claim_ids WHERE hunt = k.hunt AND player_id = p.id AND claim_id = k.claim_id
                               LIMIT 1) c ON true
            LEFT JOIN LATERAL (SELECT disabled FROM cache_flags WHERE hunt = k.hunt AND cache_id = k.cache LIMIT 1) cf ON true
            LEFT JOIN LATERAL (SELECT 1 AS yes FROM finds WHERE hunt = k.hunt AND cache_id = k.cache AND voided = 0
                               LIMIT 1) fb ON true
            LEFT JOIN LATERAL (SELECT 1 AS yes FROM items WHERE hunt = k.hunt AND kind = 'card' AND owner_id = p.id
                               AND cache_id = k.cache LIMIT 1) hc ON true
            LEFT JOIN LATERAL (SELECT * FROM finds WHERE hunt = k.hunt AND player_id = p.id AND cache_id = k.cache
                               AND voided = 0 LIMIT 1) f ON true
            LEFT JOIN LATERAL (SELECT jsonb_agg(jsonb_build_object('cache', t.cache, 'timeMs', mine.time_ms) ORDER BY mine.seq)::text AS list
                               FROM jsonb_array_elements_text(k.trail::jsonb) AS t(cache),
                                    LATERAL (SELECT time_ms, seq FROM finds WHERE hunt = k.hunt AND cache_id = t.cache
                                             AND player_id = p.id AND voided = 0 LIMIT 1) mine) tf ON true
            """, binds: binds)
        let rows = try await sql.fetch(query)
        var facts: [ClaimKey: ClaimFacts] = [:]
        for row in rows {
            let index: Int = row["i"]
            let existing: String? = row["id"], trail: String? = row["trail_finds"]
            facts[keys[index - 1]] = ClaimFacts(player: row["resolved"], sentBefore: row["sent_before"],
                                                 existingFind: existing.map { _ in Find(row: row) }, disabled: row["disabled"],
                                                 foundBefore: row["found_before"], holdsCard: row["holds_card"],
                                                 trailFinds: try trail.map { try BodyCoding.decode([TrailFind].self, from: $0) } ?? [])
        }
        return facts
    }

}
