import GeoQR

extension Trackables {
    /// How far a trip went, whichever store records it: from the cache it was picked up at (by
    /// id) to `cache`. A trip that started at a cache since removed from the hunt file counts
    /// no distance.
    static func tripDistance(from start: String?, to cache: Cache, in hunt: Hunt) -> Double {
        start.flatMap(hunt.cache(id:)).map { tripDistance(from: $0.coordinate, to: cache.coordinate) } ?? 0
    }
}
