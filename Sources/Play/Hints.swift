import Foundation
import GeoQR
import Ledger

extension Game {
    /// A player asks for a cache's hint (cache by id or name). Free hints (``GeoQR/Hunt/hintCost``
    /// 0) are answered and nothing is recorded. A paid hint is recorded once per player and
    /// cache, and its cost taken off the player's score; asking again answers the hint without
    /// charging. A hint a teammate paid for is recorded at no cost (charged once per team); in a
    /// hunt with teams, a player without one needs the points to pay. The hint of a cache the player has found (a find not voided) is free: it can no
    /// longer help them. Paying waits, like claims, while the game master has the hunt stopped.
    ///
    /// ```swift
    /// let hint = try await game.revealHint(cache: "A1", by: "P3").value
    /// print(hint.hint, hint.charged ? "-\(hint.cost) points" : "already yours")
    /// ```
    /// - throws: `unknownCache`, ``GeoQR/GameRuleViolation/noHint(_:)``, `unknownPlayer`,
    ///   ``PlayError/huntStopped``.
    public func revealHint(cache name: String, by player: String) async throws -> Outcome<RevealedHint> {
        let id = try hunt.cacheID(named: name)
        guard let hint = hunt.cache(id: id)?.hint else { throw GameRuleViolation.noHint(id) }
        guard hunt.hintCost > 0 else { return Outcome(RevealedHint(cache: id, hint: hint, cost: 0, charged: false)) }
        if let paid = try await store.hints(hunt: huntID, player: player).first(where: { $0.cache == id }) {
            return Outcome(RevealedHint(cache: id, hint: hint, cost: paid.cost, charged: false))
        }
        if try await store.finds(hunt: huntID, player: player).contains(where: { $0.cache == id && $0.voidReason == nil }) {
            return Outcome(RevealedHint(cache: id, hint: hint, cost: 0, charged: false))
        }
        try await requireRunning()
        let (reveal, isNew) = try await store.revealHint(cache: id, cost: hunt.hintCost, to: player, in: hunt, at: clock())
        let charged = isNew && reveal.cost > 0   // a teammate's payment is recorded at no cost
        return Outcome(RevealedHint(cache: id, hint: hint, cost: reveal.cost, charged: charged),
                       effects: charged ? [.standingsChanged] : [])
    }

    /// The caches whose hints `player` has paid for, or a teammate has (a hint is charged once
    /// per team); empty when hints are free.
    ///
    /// ```swift
    /// let mine = try await game.revealedHints(of: "P3")   // ["A1"]
    /// ```
    public func revealedHints(of player: String) async throws -> Set<String> {
        guard hunt.hintCost > 0 else { return [] }
        return try await store.hintsShared(hunt: huntID, with: player)
    }
}

/// A cache's hint, as ``Game/revealHint(cache:by:)`` answers it.
public struct RevealedHint: Sendable, Equatable, Codable {
    public var cache: String
    public var hint: String
    /// What the hint cost this player: 0 when hints are free.
    public var cost: Int
    /// True when this request took the points; false when the hint was free or already paid for.
    public var charged: Bool

    public init(cache: String, hint: String, cost: Int, charged: Bool) {
        self.cache = cache; self.hint = hint; self.cost = cost; self.charged = charged
    }
}

/// What a player is shown of a cache's hint in the cache list: the hint itself when it is free,
/// paid for, or the cache is found (as ``Game/revealHint(cache:by:)`` answers then); else its
/// price, to ask for it with ``Game/revealHint(cache:by:)``.
///
/// ```swift
/// let shown = CacheHint(cache, in: hunt, paid: revealed.contains(cache.id), found: found.contains(cache.id))
/// shown.text        // nil until paid, when the hunt has a hintCost
/// shown.cost        // 5, nil for free hints and caches without one
/// ```
public struct CacheHint: Sendable, Equatable {
    /// The hint, when this player may read it.
    public var text: String?
    /// Its price, when hints cost points and the cache has one.
    public var cost: Int?
    /// Whether this player paid for it, when hints cost points and the cache has one.
    public var revealed: Bool?

    public init(_ cache: Cache, in hunt: Hunt, paid: Bool, found: Bool = false) {
        guard let hint = cache.hint, hunt.hintCost > 0, !found || paid else {
            self.init(text: cache.hint, cost: nil, revealed: nil)
            return
        }
        self.init(text: paid ? hint : nil, cost: hunt.hintCost, revealed: paid)
    }

    public init(text: String?, cost: Int?, revealed: Bool?) {
        self.text = text
        self.cost = cost
        self.revealed = revealed
    }
}
