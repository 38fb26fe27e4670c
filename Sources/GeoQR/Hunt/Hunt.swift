import Foundation

/// One game: its caches, the trails that group them, and the rules for claiming them.
///
/// Hunts are read from JSON files in `caches/` with ``HuntParser``:
///
/// ```swift
/// let hunt = try HuntParser.parse(data, file: "caches/demo.json").hunt
/// for cache in hunt.caches { print(cache.id, cache.name, cache.coordinate.geocachingForm) }
/// ```
public struct Hunt: Sendable, Equatable {
    /// Short id carried by every code (code alphabet, upper case).
    public var id: String
    public var name: String
    /// Claim radius in metres for caches that do not set their own.
    public var defaultRadius: Double
    /// The most a reported location accuracy may add to a radius (metres).
    public var accuracyCap: Double
    /// Claims count only from `start` (inclusive) to `end` (exclusive) when set.
    public var start: Date?
    public var end: Date?
    public var trails: [Trail]
    public var caches: [Cache] { didSet { cacheIndex = Self.index(caches) } }
    /// Where each cache id is in `caches`: every claim looks its cache up.
    private var cacheIndex: [String: Int]
    /// The teams players may join for, as the hunt file lists them; empty means any team name
    /// (``TeamName``) will do.
    public var teams: [String]
    /// Points a player pays to see a cache's hint; 0 (the default) means hints are free and
    /// shown with the cache.
    public var hintCost: Int
    /// How long after a scan a phone that had no network may still send it (minutes): the
    /// claim is judged at the time and place it was scanned, and only this late.
    public var offlineGraceMinutes: Int
    /// Orienteering-style courses over some of the caches (``Course``); empty for a free hunt.
    public var courses: [Course]
    /// After how long without a sign of a runner who started a course and has not finished the
    /// control room warns that they have not been seen (minutes).
    public var stillOutWarningMinutes: Int
    /// How long players' positions are kept once the hunt has ended (hours): then every stored
    /// position is dropped but the ledger's commitments to them (``standardPositionRetentionHours``
    /// unless the hunt file says).
    public var positionRetentionHours: Double

    public init(id: String, name: String, defaultRadius: Double = Hunt.standardRadius,
                accuracyCap: Double = Hunt.standardAccuracyCap, start: Date? = nil, end: Date? = nil,
                trails: [Trail] = [], caches: [Cache], teams: [String] = [], hintCost: Int = 0,
                offlineGraceMinutes: Int = Hunt.standardOfflineGraceMinutes, courses: [Course] = [],
                stillOutWarningMinutes: Int = Hunt.standardStillOutWarningMinutes,
                positionRetentionHours: Double = Hunt.standardPositionRetentionHours) {
        self.positionRetentionHours = positionRetentionHours
        self.offlineGraceMinutes = offlineGraceMinutes
        self.courses = courses
        self.stillOutWarningMinutes = stillOutWarningMinutes
        self.id = id
        self.name = name
        self.defaultRadius = defaultRadius
        self.accuracyCap = accuracyCap
        self.start = start
        self.end = end
        self.trails = trails
        self.caches = caches
        self.cacheIndex = Self.index(caches)
        self.teams = teams
        self.hintCost = hintCost
    }

    /// Two hours: a walk through a park with no signal, and back, with time to spare.
    public static let standardOfflineGraceMinutes = 120

    /// Half an hour: long enough for a walk between two controls with no signal, short enough
    /// to go and look before dark.
    public static let standardStillOutWarningMinutes = 30

    /// 72 hours: a weekend for the game master to look at the claims map and settle disputes
    /// after the hunt, and no longer.
    public static let standardPositionRetentionHours: Double = 72

    /// 100 m: what a phone's GPS and a walker's patience allow, as DESIGN.md fixes it.
    public static let standardRadius: Double = 100
    /// 50 m: a browser's accuracy beyond this says more about the phone than the player.
    public static let standardAccuracyCap: Double = 50

    /// The cache with this id (ids compare ignoring case).
    public func cache(id: String) -> Cache? {
        (cacheIndex[id] ?? cacheIndex[id.uppercased()]).map { caches[$0] }
    }

    /// The first position of each id (a hunt file with a repeated id is refused before this).
    private static func index(_ caches: [Cache]) -> [String: Int] {
        var index: [String: Int] = [:]
        for (position, cache) in caches.enumerated() where index[cache.id] == nil { index[cache.id] = position }
        return index
    }

    /// The trail a cache belongs to, if any.
    public func trail(of cacheID: String) -> Trail? {
        let wanted = cacheID.uppercased()
        return trails.first { $0.cacheIDs.contains(wanted) }
    }

    /// The radius that applies to `cache`: its own, or the hunt's default.
    public func radius(of cache: Cache) -> Double {
        cache.radius ?? defaultRadius
    }
}

/// A site where a code is hidden.
public struct Cache: Sendable, Equatable, Identifiable {
    /// Short id in the code alphabet, upper case (e.g. `A1`, `GC1BKP3`).
    public var id: String
    public var name: String
    public var coordinate: Coordinate
    /// Claim radius in metres; `nil` means the hunt's default.
    public var radius: Double?
    /// 1…5 in steps of 0.5, as geocaching rates them.
    public var difficulty: Double
    public var terrain: Double
    public var points: Int
    /// Revealed to the finder.
    public var message: String
    public var hint: String?
    /// What the station asks of its finders, if anything.
    public var challenge: Challenge?

    public init(id: String, name: String, coordinate: Coordinate, radius: Double? = nil,
                difficulty: Double = 1, terrain: Double = 1, points: Int? = nil,
                message: String = "", hint: String? = nil, challenge: Challenge? = nil) {
        self.challenge = challenge
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.radius = radius
        self.difficulty = difficulty
        self.terrain = terrain
        self.points = points ?? Cache.defaultPoints(difficulty: difficulty, terrain: terrain)
        self.message = message
        self.hint = hint
    }

    /// Harder caches are worth more: 5 points per star of difficulty and terrain (D1/T1 = 10).
    public static func defaultPoints(difficulty: Double, terrain: Double) -> Int {
        Int(((difficulty + terrain) * 5).rounded())
    }
}

/// A named route through some of a hunt's caches.
extension Hunt {
    /// The cache to find next on each ordered trail, given the caches found: the trail's first
    /// one not found (none once all are). Finding them in this order earns the trail's bonus.
    ///
    /// ```swift
    /// hunt.nextOnTrails(found: ["A1"])   // ["A2"] on a trail A1 → A2 → A3
    /// ```
    public func nextOnTrails(found: Set<String>) -> Set<String> {
        Set(trails.filter(\.ordered).compactMap { trail in trail.cacheIDs.first { !found.contains($0) } })
    }
}

public struct Trail: Sendable, Equatable, Identifiable {
    public var id: String
    public var name: String
    /// When true, the trail's bonus needs its caches found in this order.
    public var ordered: Bool
    public var cacheIDs: [String]

    public init(id: String, name: String, ordered: Bool = false, cacheIDs: [String]) {
        self.id = id
        self.name = name
        self.ordered = ordered
        self.cacheIDs = cacheIDs
    }
}
