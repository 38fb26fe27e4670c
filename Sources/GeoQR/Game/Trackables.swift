/// Trackables: items the game master seeds into caches, which finders carry from cache to cache.
/// One holder at a time; each leg from a pick-up to a drop is a trip, with its distance.
///
/// ```swift
/// try Trackables.checkPickUp(trackable: "K1", sitsIn: "A1", at: "A1", by: "P1", playerHasFound: true)
/// try Trackables.checkDrop(trackable: "K1", holder: "P1", by: "P1", pickedUpFrom: "A1",
///                          into: "B2", playerHasFound: true)
/// let metres = Trackables.tripDistance(from: a1.coordinate, to: b2.coordinate)
/// ```
public enum Trackables {
    /// A finder may pick up a trackable from a cache they have found, while it sits there.
    public static func checkPickUp(trackable: String, sitsIn: String?, at cache: String, by player: String,
                                   playerHasFound: Bool) throws(GameRuleViolation) {
        guard sitsIn == cache else { throw .trackableNotInCache(trackable: trackable, cache: cache) }
        guard playerHasFound else { throw .cacheNotFoundByPlayer(cache: cache, player: player) }
    }

    /// The holder may drop a trackable into a cache they have found, other than the one the
    /// trip started from.
    public static func checkDrop(trackable: String, holder: String?, by player: String, pickedUpFrom: String?,
                                 into cache: String, playerHasFound: Bool) throws(GameRuleViolation) {
        guard holder == player else { throw .notHolding(item: trackable, player: player) }
        guard playerHasFound else { throw .cacheNotFoundByPlayer(cache: cache, player: player) }
        guard pickedUpFrom != cache else { throw .sameCache(cache) }
    }

    /// The length of a trip, in metres along the ellipsoid.
    public static func tripDistance(from: Coordinate, to: Coordinate) -> Double {
        from.distance(to: to)
    }
}
