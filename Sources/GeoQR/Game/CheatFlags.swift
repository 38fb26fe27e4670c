import Foundation

/// What the anti-cheat rules need to know of one find.
public struct FindFacts: Sendable, Equatable {
    public var id: String
    public var player: String
    public var cache: String
    public var time: Date
    /// Where the claim was made; nil when nothing said (a game master's entry).
    public var location: Coordinate?
    public var photoSHA256: String?

    public init(id: String, player: String, cache: String, time: Date, location: Coordinate?, photoSHA256: String?) {
        self.id = id
        self.player = player
        self.cache = cache
        self.time = time
        self.location = location
        self.photoSHA256 = photoSHA256
    }
}

/// Something for the game master to look at: a find that may not be honest. Flags never reject
/// or void anything by themselves.
public struct CheatFlag: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// The player's previous find was too far away for the time between the two.
        case tooFast = "too-fast"
        /// Another player's find used the very same photo (same SHA-256).
        case samePhoto = "same-photo"
        /// Claimed from exactly the cache's coordinates, as a typed-in location would be.
        case exactCoordinates = "exact-coordinates"
    }

    public var kind: Kind
    /// The find that raised the flag (the later one of a pair).
    public var find: String
    public var player: String
    public var cache: String
    public var time: Date
    /// The earlier find it is compared with (too-fast, same-photo).
    public var otherFind: String?
    /// One line for the game master, e.g. "12.3 km from F4 (A1) in 60 s: 738 km/h".
    public var detail: String
}

/// The anti-cheat rules: pure functions over finds, for the game master's eyes.
///
/// ```swift
/// let flags = CheatFlags.flags(finds, in: hunt)   // too-fast, same-photo, exact-coordinates
/// for flag in flags { print(flag.find, flag.kind.rawValue, flag.detail) }
/// ```
public enum CheatFlags {
    /// Faster than this between two finds is flagged: no honest player drives at 200 km/h
    /// between caches.
    public static let speedLimitKmh: Double = 200

    /// Every flag the finds raise, in the order of the finds that raised them. Pass only
    /// standing finds: a void one has already been dealt with.
    public static func flags(_ finds: [FindFacts], in hunt: Hunt, speedLimitKmh: Double = speedLimitKmh) -> [CheatFlag] {
        let ordered = finds.sorted { ($0.time, $0.id.count, $0.id) < ($1.time, $1.id.count, $1.id) }
        let all = tooFast(ordered, in: hunt, speedLimitKmh: speedLimitKmh) + samePhoto(ordered)
            + exactCoordinates(ordered, in: hunt)
        let position = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($0.element.id, $0.offset) })
        let kindOrder = Dictionary(uniqueKeysWithValues: CheatFlag.Kind.allCases.enumerated().map { ($0.element, $0.offset) })
        return all.sorted { (position[$0.find]!, kindOrder[$0.kind]!) < (position[$1.find]!, kindOrder[$1.kind]!) }
    }

    /// Where a find puts its player: the claim's location, else the cache's.
    static func place(_ find: FindFacts, in hunt: Hunt) -> Coordinate? {
        find.location ?? hunt.cache(id: find.cache)?.coordinate
    }

    /// Each find whose player's previous find (by time) is too far for the time between them.
    /// Comparing neighbours is enough: if A→C is too fast, so is A→B or B→C.
    static func tooFast(_ ordered: [FindFacts], in hunt: Hunt, speedLimitKmh: Double) -> [CheatFlag] {
        var flags: [CheatFlag] = []
        var previous: [String: FindFacts] = [:]
        for find in ordered {
            defer { previous[find.player] = find }
            guard let before = previous[find.player], let from = place(before, in: hunt), let to = place(find, in: hunt)
            else { continue }
            let metres = from.distance(to: to)
            let seconds = find.time.timeIntervalSince(before.time)
            guard let kmh = speedKmh(metres: metres, seconds: seconds), kmh > speedLimitKmh else { continue }
            let speed = kmh.isFinite ? "\(Int(kmh.rounded())) km/h" : "no time at all"
            flags.append(CheatFlag(kind: .tooFast, find: find.id, player: find.player, cache: find.cache, time: find.time,
                                   otherFind: before.id,
                                   detail: "\(distanceText(metres)) from \(before.id) (\(before.cache)) in \(durationText(seconds)): \(speed)"))
        }
        return flags
    }

    /// Speed in km/h; infinite for a distance covered in no time, nil for no distance at all.
    public static func speedKmh(metres: Double, seconds: Double) -> Double? {
        guard metres > 0 else { return nil }
        guard seconds > 0 else { return .infinity }
        return metres / seconds * 3.6
    }

    /// Each find whose photo another player's earlier find already used.
    static func samePhoto(_ ordered: [FindFacts]) -> [CheatFlag] {
        var firstUse: [String: FindFacts] = [:]
        var flags: [CheatFlag] = []
        for find in ordered {
            guard let photo = find.photoSHA256 else { continue }
            guard let first = firstUse[photo] else { firstUse[photo] = find; continue }
            guard first.player != find.player else { continue }
            flags.append(CheatFlag(kind: .samePhoto, find: find.id, player: find.player, cache: find.cache, time: find.time,
                                   otherFind: first.id,
                                   detail: "the same photo as \(first.id) by \(first.player) (sha256 \(photo.prefix(12))…)"))
        }
        return flags
    }

    /// Each find claimed from exactly its cache's coordinates: a phone's GPS never lands on
    /// them to the last digit, a location typed in from the hunt sheet does.
    static func exactCoordinates(_ ordered: [FindFacts], in hunt: Hunt) -> [CheatFlag] {
        ordered.compactMap { find in
            guard let at = find.location, let cache = hunt.cache(id: find.cache), at == cache.coordinate else { return nil }
            return CheatFlag(kind: .exactCoordinates, find: find.id, player: find.player, cache: find.cache, time: find.time,
                             otherFind: nil, detail: "claimed from exactly the coordinates of \(cache.id) (\(at.decimalForm))")
        }
    }

    static func distanceText(_ metres: Double) -> String {
        metres < 1000 ? "\(Int(metres.rounded())) m" : String(format: "%.1f km", metres / 1000)
    }

    static func durationText(_ seconds: Double) -> String {
        if seconds <= 0 { return "0 s" }
        if seconds < 120 { return "\(Int(seconds.rounded())) s" }
        if seconds < 7200 { return "\(Int((seconds / 60).rounded())) min" }
        return String(format: "%.1f h", seconds / 3600)
    }
}
