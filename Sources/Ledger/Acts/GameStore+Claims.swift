import Foundation
import GeoQR

extension GameStore {
    /// Records a claim: a find when its verdict is `claimable`, else an attempt for audit. The
    /// same claim again (its player and claim id) answers with what the first sending came to.
    /// The claim carries the scan time; the event is stamped `time`, the moment it is recorded.
    public func record(_ claim: ClaimRecord, in hunt: Hunt, at time: Date) async throws -> ClaimOutcome {
        let claim = claim.normalized(for: hunt)
        let scoring = rules.scoring
        let trail = claim.cache.flatMap(hunt.cache(id:)).map { NewFind.trailCaches(of: $0.id, in: hunt).sorted() } ?? []
        let key = ClaimKey(hunt: hunt.id, player: claim.player, cache: claim.cache ?? "", claimID: claim.claimID ?? "",
                           trailCaches: trail)
        return try await perform(LedgerAct(claim: key) { facts in
            var claim = claim
            let known = try facts.claimFacts(key)
            guard let player = known.player else { throw GameRuleViolation.unknownPlayer(claim.player) }
            claim.player = player
            if known.sentBefore, let id = claim.claimID,
               let earlier = try facts.earlierSending(hunt: hunt.id, player: player, claimID: id) {
                return .answer(.resent(earlier))
            }
            let cache = claim.cache.flatMap(hunt.cache(id:))
            switch Finding.decide(claim, cache: cache, disabled: known.disabled, existingFind: known.existingFind?.id) {
            case .repeatOf:
                return .answer(.alreadyFound(known.existingFind!))
            case .attempt(let verdict):
                let attempted = NewEvent(.claimAttempted, hunt: hunt.id, actor: player, at: time) { _ in
                    ClaimAttempted(claim: claim, verdict: verdict)
                }
                return Decision(events: [attempted]) { _, _ in .attempt(verdict: verdict) }
            case .newFind:
                let found = NewEvent(.findRecorded, hunt: hunt.id, actor: player, at: time) { seq in
                    NewFind.body(seq: seq, claim: claim, cache: cache!, hunt: hunt, scoring: scoring,
                                 firstToFind: !known.foundBefore, playerHoldsCard: known.holdsCard,
                                 earlierTrailFinds: known.trailFinds.map { (cache: $0.cache, timeMs: $0.timeMs) })
                }
                return Decision(events: [found]) { _, appended in
                    NewFind.outcome(of: try appended[0].body(as: FindRecorded.self), hunt: hunt.id)
                }
            }
        })
    }

    /// Finds of a hunt, oldest first; one player's when `player` is set. Void finds included.
    public func finds(hunt: String, player: String?) async throws -> [Find] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead(consistent: player != nil) { facts in
            guard let player else {
                return try facts.rows("SELECT * FROM finds WHERE hunt = ? ORDER BY time_ms, seq", hunt).map(Find.init(row:))
            }
            let id = try facts.requirePlayer(hunt: hunt, player)
            return try facts.rows("SELECT * FROM finds WHERE hunt = ? AND player_id = ? ORDER BY time_ms, seq", hunt, id)
                .map(Find.init(row:))
        })
    }

    /// Finds that count (none the game master voided), oldest first; one player's when
    /// `player` is set: what a player has found, for the cache list, an export, the cheat flags.
    ///
    /// The player and their finds are two statements, not one snapshot: a find recorded or a
    /// player forgotten between them gives what the next read would, and on PostgreSQL a
    /// snapshot cost two more round trips (`BEGIN`, `COMMIT`) with the connection held. At
    /// 3,000 phones on two servers these reads' open transactions were in every second sample
    /// of `pg_stat_activity`, waiting for the server to send the next statement.
    public func liveFinds(hunt: String, player: String?) async throws -> [Find] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            guard let player else {
                return try facts.rows("SELECT * FROM finds WHERE hunt = ? AND voided = 0 ORDER BY time_ms, seq", hunt)
                    .map(Find.init(row:))
            }
            let id = try facts.requirePlayer(hunt: hunt, player)
            return try facts.rows("SELECT * FROM finds WHERE hunt = ? AND player_id = ? AND voided = 0 ORDER BY time_ms, seq",
                                  hunt, id).map(Find.init(row:))
        })
    }

    /// A player's cards, newest first.
    public func collection(hunt: String, player: String) async throws -> [Card] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead(consistent: true) { facts in
            let id = try facts.requirePlayer(hunt: hunt, player)
            return try facts.rows("""
                SELECT * FROM items WHERE hunt = ? AND kind = 'card' AND owner_id = ? ORDER BY found_ms DESC, id DESC
                """, hunt, id).map(Card.init(row:))
        })
    }

    /// Players by points, then by finds, then by name.
    ///
    /// Points and finds are summed once per hunt and joined to the players, not summed in a
    /// subquery per player: on PostgreSQL that took 280 ms at 10,000 players (with 15 ms of
    /// JIT, which its estimated cost called for) against 32 ms this way; SQLite takes 30 ms
    /// either way. A served hunt reads it once and then only the players whose lines changed
    /// (``LeaderboardBook``).
    public func leaderboard(hunt: String) async throws -> [Standing] {
        try await rankedLines(hunt: hunt).map(\.standing)
    }

    /// Every player's line with the key that orders equal lines (their name's, bytewise), in
    /// the leaderboard's order.
    func rankedLines(hunt: String) async throws -> [StandingLine] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            try facts.rows("""
                SELECT p.id, p.name, p.team, p.name_key,
                       CAST(COALESCE(totals.points, 0) AS BIGINT) AS points, COALESCE(counts.finds, 0) AS finds
                FROM players p
                LEFT JOIN (SELECT player_id, SUM(amount) AS points FROM points WHERE hunt = ? GROUP BY player_id) totals
                       ON totals.player_id = p.id
                LEFT JOIN (SELECT player_id, COUNT(*) AS finds FROM finds WHERE hunt = ? AND voided = 0 GROUP BY player_id) counts
                       ON counts.player_id = p.id
                WHERE p.hunt = ?
                ORDER BY points DESC, finds DESC, p.name_key COLLATE \(facts.dialect.bytewise)
                """, hunt, hunt, hunt).map(StandingLine.init(row:))
        })
    }

    /// The lines of `players` alone, in no order; a player not in the hunt has none. Each
    /// player's points and finds are summed through the indexes by player, so this costs in
    /// proportion to those players, not to the hunt.
    func lines(hunt: String, of players: [String], perQuery size: Int) async throws -> [StandingLine] {
        let hunt = hunt.uppercased()
        var lines: [StandingLine] = []
        // A fixed number of places in each query (the last padded with a repeat), so each
        // store prepares one statement.
        let places = Array(repeating: "?", count: size).joined(separator: ", ")
        for start in stride(from: 0, to: players.count, by: size) {
            var chunk = Array(players[start..<min(start + size, players.count)])
            chunk += Array(repeating: chunk[0], count: size - chunk.count)
            let arguments = ([hunt, hunt, hunt] + chunk).map(LedgerValue.text)
            lines += try await query(LedgerRead { facts in
                try facts.rows("""
                    SELECT p.id, p.name, p.team, p.name_key,
                           CAST(COALESCE((SELECT SUM(amount) FROM points WHERE hunt = ? AND player_id = p.id), 0) AS BIGINT) AS points,
                           (SELECT COUNT(*) FROM finds WHERE hunt = ? AND player_id = p.id AND voided = 0) AS finds
                    FROM players p
                    WHERE p.hunt = ? AND p.id IN (\(places))
                    """, arguments).map(StandingLine.init(row:))
            })
        }
        return lines
    }

    /// The points each find of a hunt counts for now, by find id (awards of a voided find are
    /// gone, so it counts for nothing and is not listed).
    ///
    /// ```swift
    /// let points = try await store.pointsByFind(hunt: "DEMO")["F12"] ?? 0   // 15
    /// ```
    public func pointsByFind(hunt: String) async throws -> [String: Int] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            let rows = try facts.rows("""
                SELECT find_id, CAST(SUM(amount) AS BIGINT) AS points FROM points
                WHERE hunt = ? AND find_id IS NOT NULL GROUP BY find_id
                """, hunt)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["find_id"] as String, $0["points"] as Int) })
        })
    }

    /// Claims of a hunt kept for audit and not finds, oldest first.
    ///
    /// ```swift
    /// let forged = try await store.attempts(hunt: "DEMO").filter { $0.verdict == .forged }
    /// ```
    public func attempts(hunt: String) async throws -> [Attempt] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            try facts.rows("SELECT * FROM attempts WHERE hunt = ? ORDER BY seq", hunt).map(Attempt.init(row:))
        })
    }

    /// Finds the game master should look at (``GeoQR/CheatFlags``): too fast between two
    /// finds, the same photo as another player, exactly the cache's coordinates.
    public func flags(in hunt: Hunt) async throws -> [CheatFlag] {
        CheatFlags.flags(try await liveFinds(hunt: hunt.id, player: nil).map(\.facts), in: hunt)
    }
}

extension Find {
    /// What the anti-cheat rules look at.
    public var facts: FindFacts {
        FindFacts(id: id, player: player, cache: cache, time: time, location: location, photoSHA256: photoSHA256)
    }
}
