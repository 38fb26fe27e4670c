/// How many points a find is worth: the cache's points, a bonus for the first finder, and a
/// bonus for the find that completes a trail (in the trail's order, when it is ordered). A
/// course's start and finish earn no first-finder bonus: every runner passes them, and being
/// first through a mass start's finish is not a find.
///
/// ```swift
/// let awards = Scoring().awards(for: cache, in: hunt, firstToFind: true,
///                               findsInOrder: ["A1", "A2", cache.id])
/// awards.map(\.amount).reduce(0, +)
/// ```
public struct Scoring: Sendable, Equatable {
    /// Added for the first non-void find of a cache in the hunt (not a course's start or finish).
    public var firstToFindBonus: Int
    /// A completed trail is worth this much per cache on it.
    public var trailBonusPerCache: Int

    public init(firstToFindBonus: Int = 5, trailBonusPerCache: Int = 5) {
        self.firstToFindBonus = firstToFindBonus
        self.trailBonusPerCache = trailBonusPerCache
    }

    /// The awards a new find earns. `findsInOrder` is the player's non-void finds in the hunt,
    /// this one included, as cache ids in the order they were made (by claim time).
    public func awards(for cache: Cache, in hunt: Hunt, firstToFind: Bool, findsInOrder: [String]) -> [PointsAward] {
        var awards = [PointsAward(reason: PointsAward.cacheReason, amount: cache.points)]
        if firstToFind, firstToFindBonus != 0, !hunt.isCourseGate(cache.id) {
            awards.append(PointsAward(reason: PointsAward.firstToFindReason, amount: firstToFindBonus))
        }
        let sequence = findsInOrder.map { $0.uppercased() }
        for trail in hunt.trails where trail.cacheIDs.contains(cache.id) {
            // Only the find that completes the trail earns it: without this cache it was not.
            if Self.completes(trail, finds: sequence), !Self.completes(trail, finds: sequence.filter { $0 != cache.id }) {
                awards.append(PointsAward(reason: PointsAward.trailReason(trail.id),
                                          amount: trailBonusPerCache * trail.cacheIDs.count))
            }
        }
        return awards
    }

    /// True when `finds` (cache ids, oldest first) hold every cache of the trail, and, for an
    /// ordered trail, reach them in the trail's order (other caches in between do not matter).
    public static func completes(_ trail: Trail, finds: [String]) -> Bool {
        let members = Set(trail.cacheIDs)
        let reached = finds.filter { members.contains($0) }
        guard Set(reached) == members else { return false }
        return !trail.ordered || reached == trail.cacheIDs
    }
}

/// Points given to a player, and why.
public struct PointsAward: Sendable, Equatable, Codable {
    /// `cache`, `first-to-find`, `trail:ID`, `adjustment: WHY` or `hint: CACHE`.
    public var reason: String
    public var amount: Int

    public init(reason: String, amount: Int) {
        self.reason = reason
        self.amount = amount
    }

    public static let cacheReason = "cache"
    public static let firstToFindReason = "first-to-find"
    public static let adjustmentReason = "adjustment"
    public static func trailReason(_ trailID: String) -> String { "trail:\(trailID)" }
    /// A paid hint: its cost is taken off with this reason.
    public static func hintReason(_ cacheID: String) -> String { "hint: \(cacheID)" }
    /// The reason of a challenge answer's points (won or lost).
    public static func challengeReason(_ cacheID: String) -> String { "challenge: \(cacheID)" }
}
