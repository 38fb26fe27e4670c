import Foundation
import GeoQR

extension GameStore {
    /// Records that `player` paid `cost` points to see `cache`'s hint, taking them off their
    /// score, unless they already did: then nothing is written and the first record answers
    /// (read and written in one transaction: two taps on "reveal" pay once). The caller decides
    /// the cost (``GeoQR/Hunt/hintCost``); the ledger keeps what was paid.
    ///
    /// ```swift
    /// let (reveal, isNew) = try await store.revealHint(cache: "A1", cost: 5, to: "P3", in: hunt, at: .now)
    /// ```
    /// - throws: ``GeoQR/GameRuleViolation/unknownCache(_:)``, `unknownPlayer`.
    public func revealHint(cache: String, cost: Int, to player: String, in hunt: Hunt,
                           at time: Date) async throws -> (reveal: HintReveal, isNew: Bool) {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let huntID = hunt.id
        let answer: HintAnswer = try await perform(LedgerAct { facts in
            let playerID = try facts.requirePlayer(hunt: huntID, player)
            if let paid = try facts.hint(hunt: huntID, player: playerID, cache: site.id) {
                return .answer(HintAnswer(reveal: paid, isNew: false))
            }
            let revealed = NewEvent(.hintRevealed, hunt: huntID, actor: playerID, at: time) { _ in
                HintRevealed(player: playerID, cache: site.id, cost: cost)
            }
            return Decision(events: [revealed]) { facts, _ in
                HintAnswer(reveal: try facts.hint(hunt: huntID, player: playerID, cache: site.id)!, isNew: true)
            }
        })
        return (answer.reveal, answer.isNew)
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

/// A hint's answer (a tuple is not `Sendable`).
private struct HintAnswer: Sendable {
    let reveal: HintReveal
    let isNew: Bool
}
