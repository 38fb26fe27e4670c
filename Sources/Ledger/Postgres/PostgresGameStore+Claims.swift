import Foundation
import GeoQR
import PostgresNIO

extension PostgresGameStore {
    public func record(_ claim: ClaimRecord, in hunt: Hunt, at time: Date) async throws -> ClaimOutcome {
        let claim = claim.normalized(for: hunt)
        let scoring = configuration.scoring
        let trail = claim.cache.flatMap(hunt.cache(id:)).map { NewFind.trailCaches(of: $0.id, in: hunt).sorted() } ?? []
        let key = ClaimKey(hunt: hunt.id, player: claim.player, cache: claim.cache ?? "", claimID: claim.claimID ?? "",
                           trailCaches: trail)
        return try await write(claim: key) { tx in
            var claim = claim
            let facts = try await Self.claimFacts(tx, key)
            guard let player = facts.player else { throw GameRuleViolation.unknownPlayer(claim.player) }
            claim.player = player
            if facts.sentBefore, let id = claim.claimID, let earlier = try await Self.earlierSending(tx.sql, hunt: hunt.id, player: player, claimID: id) {
                return .resent(earlier)
            }
            let cache = claim.cache.flatMap(hunt.cache(id:))
            switch Finding.decide(claim, cache: cache, disabled: facts.disabled, existingFind: facts.existingFind?.id) {
            case .repeatOf:
                return .alreadyFound(facts.existingFind!)
            case .attempt(let verdict):
                try await tx.append(.claimAttempted, hunt: hunt.id, actor: claim.player, at: time) { _ in
                    ClaimAttempted(claim: claim, verdict: verdict)
                }
                tx.claims.recorded(key, player: player, findTimeMs: nil)
                return .attempt(verdict: verdict)
            case .newFind:
                let cache = cache!
                let body = NewFind.body(seq: tx.nextSeq, claim: claim, cache: cache, hunt: hunt, scoring: scoring,
                                        firstToFind: !facts.foundBefore, playerHoldsCard: facts.holdsCard,
                                        earlierTrailFinds: facts.trailFinds.map { (cache: $0.cache, timeMs: $0.timeMs) })
                try await tx.append(.findRecorded, hunt: hunt.id, actor: claim.player, at: time) { _ in body }
                tx.claims.recorded(key, player: player, findTimeMs: claim.time.millisecondsSince1970)
                return NewFind.outcome(of: body, hunt: hunt.id)
            }
        }
    }

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
                                                 existingFind: existing.map { _ in find(row) }, disabled: row["disabled"],
                                                 foundBefore: row["found_before"], holdsCard: row["holds_card"],
                                                 trailFinds: try trail.map { try BodyCoding.decode([TrailFind].self, from: $0) } ?? [])
        }
        return facts
    }

    /// What a claim this player sent before under this id came to, or nil for a first sending.
    /// Ids are the player's own: the same id from another player is a claim of theirs.
    private static func earlierSending(_ sql: PostgresSQL, hunt: String, player: String, claimID: String) async throws -> ClaimOutcome? {
        guard let row = try await sql.row("SELECT find_id, verdict FROM claim_ids WHERE hunt = ? AND player_id = ? AND claim_id = ?",
                                          hunt, player, claimID) else { return nil }
        guard let findID: String = row["find_id"], let find = try await find(sql, id: findID) else {
            return .attempt(verdict: Verdict(rawValue: row["verdict"]) ?? .noCode)
        }
        let points: Int = try await sql.row("SELECT COALESCE(SUM(amount), 0)::bigint AS points FROM points WHERE find_id = ?",
                                            findID)!["points"]
        let card: String? = try await sql.row("SELECT id FROM items WHERE id = ?", "C" + findID.dropFirst())?["id"]
        return .found(find, points: points, card: card)
    }

    public func finds(hunt: String, player: String?) async throws -> [Find] {
        let hunt = hunt.uppercased()
        return try await read(snapshot: player != nil) { sql in
            guard let player else {
                return try await sql.rows("SELECT * FROM finds WHERE hunt = ? ORDER BY time_ms, seq", hunt).map(Self.find)
            }
            let id = try await Self.requirePlayer(sql, hunt: hunt, player)
            return try await sql.rows("SELECT * FROM finds WHERE hunt = ? AND player_id = ? ORDER BY time_ms, seq", hunt, id)
                .map(Self.find)
        }
    }

    public func collection(hunt: String, player: String) async throws -> [Card] {
        let hunt = hunt.uppercased()
        return try await read(snapshot: true) { sql in
            let id = try await Self.requirePlayer(sql, hunt: hunt, player)
            return try await sql.rows("""
                SELECT * FROM items WHERE hunt = ? AND kind = 'card' AND owner_id = ? ORDER BY found_ms DESC, id DESC
                """, hunt, id).map { row in
                Card(id: row["id"], cache: row["cache_id"], cacheName: row["name"], message: row["message"],
                     foundAt: Date(millisecondsSince1970: row["found_ms"]),
                     foundLatitude: row["found_lat"], foundLongitude: row["found_lon"])
            }
        }
    }

    public func leaderboard(hunt: String) async throws -> [Standing] {
        let hunt = hunt.uppercased()
        return try await read { sql in
            try await sql.rows("""
                SELECT p.id, p.name, p.team,
                       COALESCE((SELECT SUM(amount) FROM points WHERE hunt = p.hunt AND player_id = p.id), 0)::bigint AS points,
                       (SELECT COUNT(*) FROM finds WHERE hunt = p.hunt AND player_id = p.id AND voided = 0) AS finds
                FROM players p WHERE p.hunt = ?
                ORDER BY points DESC, finds DESC, p.name_key COLLATE "C"
                """, hunt).map {
                Standing(player: $0["id"], name: $0["name"], team: $0["team"], points: $0["points"], finds: $0["finds"])
            }
        }
    }

    public func pointsByFind(hunt: String) async throws -> [String: Int] {
        let hunt = hunt.uppercased()
        return try await read { sql in
            let rows = try await sql.rows("""
                SELECT find_id, SUM(amount)::bigint AS points FROM points
                WHERE hunt = ? AND find_id IS NOT NULL GROUP BY find_id
                """, hunt)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["find_id"] as String, $0["points"] as Int) })
        }
    }

    public func attempts(hunt: String) async throws -> [Attempt] {
        let hunt = hunt.uppercased()
        return try await read { sql in
            try await sql.rows("SELECT * FROM attempts WHERE hunt = ? ORDER BY seq", hunt).map { row in
                Attempt(seq: row["seq"], player: row["player_id"], cache: row["cache_id"],
                        time: Date(millisecondsSince1970: row["time_ms"]),
                        verdict: Verdict(rawValue: row["verdict"]) ?? .noCode,
                        method: ClaimMethod(rawValue: row["method"]) ?? .gameMaster)
            }
        }
    }

    public func flags(in hunt: Hunt) async throws -> [CheatFlag] {
        let finds = try await finds(hunt: hunt.id, player: nil)
        return CheatFlags.flags(finds.filter { $0.voidReason == nil }.map(\.facts), in: hunt)
    }

    static func liveFindID(_ sql: PostgresSQL, hunt: String, player: String, cache: String) async throws -> String? {
        try await sql.row("SELECT id FROM finds WHERE hunt = ? AND player_id = ? AND cache_id = ? AND voided = 0",
                          hunt, player, cache)?["id"]
    }

    static func find(_ sql: PostgresSQL, id: String) async throws -> Find? {
        try await sql.row("SELECT * FROM finds WHERE id = ?", id).map(find)
    }

    static func find(_ row: LedgerRow) -> Find {
        let lat: Double? = row["lat"], lon: Double? = row["lon"]
        return Find(id: row["id"], hunt: row["hunt"], player: row["player_id"], cache: row["cache_id"],
                    time: Date(millisecondsSince1970: row["time_ms"]),
                    location: lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } },
                    method: ClaimMethod(rawValue: row["method"]) ?? .gameMaster, photoSHA256: row["photo_sha256"],
                    firstToFind: row["first_to_find"], voidReason: row["void_reason"])
    }
}
