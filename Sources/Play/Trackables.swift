import Foundation
import GeoQR
import Ledger

extension Game {
    /// The game master puts a new trackable into a cache (a cache id or name).
    ///
    /// ```swift
    /// let duck = try await game.seedTrackable(named: "Rubber duck", into: "A2").value   // K7
    /// ```
    public func seedTrackable(named name: String, into cache: String) async throws -> Outcome<Trackable> {
        let trackable = try await store.seedTrackable(name: name, into: try hunt.cacheID(named: cache), in: hunt,
                                                      by: GameMaster.actor, at: clock())
        return Outcome(trackable)
    }

    /// A player who found the cache takes a trackable (id or name) out of it; without a cache,
    /// out of the one it sits in.
    ///
    /// ```swift
    /// try await game.pickUp("K7", from: "A2", by: "P3")
    /// ```
    public func pickUp(_ trackable: String, from cache: String? = nil, by player: String) async throws -> Outcome<Trackable> {
        try await requireRunning()
        let id = try await trackableID(trackable)
        let from: String
        if let cache {
            from = try hunt.cacheID(named: cache)
        } else {
            guard let current = try await store.trackable(hunt: huntID, id: id) else { throw GameRuleViolation.unknownItem(id) }
            guard let sits = current.cache else { throw GameRuleViolation.trackableNotInCache(trackable: id, cache: "any cache") }
            from = sits
        }
        return Outcome(try await store.pickUp(trackable: id, from: from, by: player, in: hunt, at: clock()))
    }

    /// Its holder puts a trackable into another cache they found, ending a trip.
    ///
    /// ```swift
    /// let trip = try await game.drop("rubber duck", into: "A3", by: "P3").value.trips.last
    /// ```
    public func drop(_ trackable: String, into cache: String, by player: String) async throws -> Outcome<Trackable> {
        try await requireRunning()
        let id = try await trackableID(trackable)
        return Outcome(try await store.drop(trackable: id, into: try hunt.cacheID(named: cache), by: player, in: hunt, at: clock()))
    }

    /// Every trackable of the hunt, in seeding order, with their trips.
    ///
    /// ```swift
    /// for t in try await game.trackables() { print(t.id, t.name, t.totalDistance) }
    /// ```
    public func trackables() async throws -> [Trackable] {
        try await store.trackables(hunt: huntID)
    }

    /// The trackable named by its id (K7) or its name, ignoring case; a name two trackables
    /// share must be given as an id.
    ///
    /// ```swift
    /// let duck = try await game.trackable(named: "rubber duck")
    /// ```
    public func trackable(named argument: String) async throws -> Trackable {
        let all = try await store.trackables(hunt: huntID)
        if let byID = all.first(where: { $0.id == argument.uppercased() }) { return byID }
        let named = all.filter { $0.name.caseInsensitiveCompare(argument) == .orderedSame }
        guard let match = named.first else { throw GameRuleViolation.unknownItem(argument) }
        guard named.count == 1 else { throw PlayError.ambiguousTrackable(argument, ids: named.map(\.id)) }
        return match
    }

    func trackableID(_ argument: String) async throws -> String {
        try await trackable(named: argument).id
    }
}

extension Hunt {
    /// The id of the cache named by `argument`: its id, or its name, ignoring case.
    ///
    /// ```swift
    /// try hunt.cacheID(named: "salt pan view")   // "A2"
    /// ```
    public func cacheID(named argument: String) throws(GameRuleViolation) -> String {
        if let cache = cache(id: argument.uppercased()) { return cache.id }
        guard let match = caches.first(where: { $0.name.caseInsensitiveCompare(argument) == .orderedSame }) else {
            throw .unknownCache(argument)
        }
        return match.id
    }
}
