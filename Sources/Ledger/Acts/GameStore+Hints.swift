import Foundation
import GeoQR

extension GameStore {
    /// Records that `player` paid `cost` points to see `cache`'s hint, taking them off their
    /// score, unless they already did: then nothing is written and the first record answers
    /// (read and written in one transaction: two taps on "reveal" pay once). The caller decides
    /// the cost (``GeoQR/Hunt/hintCost``); the ledger keeps what was paid.
    ///
    /// A hint is charged once per team: when a teammate paid for it, it is recorded for this
    /// player at no cost. In a hunt with teams, a player who joined without one pays alone and
    /// only with points they have, so accounts made to fetch hints cannot run up debts.
    ///
    /// ```swift
    /// let (reveal, isNew) = try await store.revealHint(cache: "A1", cost: 5, to: "P3", in: hunt, at: .now)
    /// ```
    /// - throws: ``GeoQR/GameRuleViolation/unknownCache(_:)``, `unknownPlayer`, `notEnoughPoints`.
    public func revealHint(cache: String, cost: Int, to player: String, in hunt: Hunt,
                           at time: Date) async throws -> (reveal: HintReveal, isNew: Bool) {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let huntID = hunt.id, teamHunt = !hunt.teams.isEmpty
        let answer: HintAnswer = try await perform(LedgerAct { facts in
            guard let row = try facts.playerRow(hunt: huntID, named: player) else { throw GameRuleViolation.unknownPlayer(player) }
            let playerID: String = row["id"], team: String? = row["team"]
            if let paid = try facts.hint(hunt: huntID, player: playerID, cache: site.id) {
                return .answer(HintAnswer(reveal: paid, isNew: false))
            }
            var charge = cost
            if let team, try facts.teamPaidHint(hunt: huntID, team: team, cache: site.id) {
                charge = 0
            } else if team == nil, teamHunt, charge > 0 {
                let have = try facts.points(hunt: huntID, player: playerID)
                guard have >= charge else { throw GameRuleViolation.notEnoughPoints(have: have, cost: charge) }
            }
            let revealed = NewEvent(.hintRevealed, hunt: huntID, actor: playerID, at: time) { [charge] _ in
                HintRevealed(player: playerID, cache: site.id, cost: charge)
            }
            return Decision(events: [revealed]) { facts, _ in
                HintAnswer(reveal: try facts.hint(hunt: huntID, player: playerID, cache: site.id)!, isNew: true)
            }
        })
        return (answer.reveal, answer.isNew)
    }

    /// The caches whose hints `player` may see without paying: theirs, and those a teammate
    /// paid for.
    public func hintsShared(hunt: String, with player: String) async throws -> Set<String> {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            guard let row = try facts.playerRow(hunt: hunt, named: player) else { throw GameRuleViolation.unknownPlayer(player) }
            let id: String = row["id"], team: String? = row["team"]
            var caches = Set(try facts.rows("SELECT cache_id FROM hints WHERE hunt = ? AND player_id = ?", hunt, id)
                .map { $0["cache_id"] as String })
            if let team {
                caches.formUnion(try facts.rows("""
                    SELECT h.cache_id FROM hints h JOIN players p ON p.id = h.player_id AND p.hunt = h.hunt
                    WHERE h.hunt = ? AND h.cost > 0 AND p.team = ?
                    """, hunt, team).map { $0["cache_id"] as String })
            }
            return caches
        })
    }

    /// The hints paid for in a hunt, oldest first; one player's when `player` is set.
    public func hints(hunt: String, player: String?) async throws -> [HintReveal] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead(consistent: player != nil) { facts in
            guard let player else {
                return try facts.rows("SELECT * FROM hints WHERE hunt = ? ORDER BY seq", hunt).map(HintReveal.init(row:))
            }
            let id = try facts.requirePlayer(hunt: hunt, player)
            return try facts.rows("SELECT * FROM hints WHERE hunt = ? AND player_id = ? ORDER BY seq", hunt, id)
                .map(HintReveal.init(row:))
        })
    }
}

extension FactReader {
    /// Whether a player of `team` paid for `cache`'s hint.
    func teamPaidHint(hunt: String, team: String, cache: String) throws -> Bool {
        try row("""
            SELECT 1 AS paid FROM hints h JOIN players p ON p.id = h.player_id AND p.hunt = h.hunt
            WHERE h.hunt = ? AND h.cache_id = ? AND h.cost > 0 AND p.team = ?
            """, hunt, cache, team) != nil
    }

    /// A player's points now.
    func points(hunt: String, player: String) throws -> Int {
        try row("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS points FROM points WHERE hunt = ? AND player_id = ?",
                hunt, player)?["points"] ?? 0
    }
}

/// A hint's answer (a tuple is not `Sendable`).
private struct HintAnswer: Sendable {
    let reveal: HintReveal
    let isNew: Bool
}
