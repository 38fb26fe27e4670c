import Foundation
import GeoQR

/// A player of one hunt, as the ledger knows them (never with the PIN hash).
public struct Player: Sendable, Equatable, Codable {
    /// `P` and the seq of the event that made them, e.g. `P3`.
    public var id: String
    public var hunt: String
    public var name: String
    public var team: String?
    public var joined: Date
}

/// A find: an accepted claim. One per player per cache; never moves.
public struct Find: Sendable, Equatable, Codable {
    /// `F` and the seq of the event that recorded it.
    public var id: String
    public var hunt: String
    public var player: String
    public var cache: String
    public var time: Date
    public var location: Coordinate?
    public var method: ClaimMethod
    public var photoSHA256: String?
    public var firstToFind: Bool
    /// Set when the game master voided the find.
    public var voidReason: String?

    private enum CodingKeys: String, CodingKey {
        case id, hunt, player, cache, time, latitude, longitude, method, photoSHA256, firstToFind, voidReason
    }

    init(id: String, hunt: String, player: String, cache: String, time: Date, location: Coordinate?,
         method: ClaimMethod, photoSHA256: String?, firstToFind: Bool, voidReason: String?) {
        self.id = id; self.hunt = hunt; self.player = player; self.cache = cache; self.time = time
        self.location = location; self.method = method; self.photoSHA256 = photoSHA256
        self.firstToFind = firstToFind; self.voidReason = voidReason
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let lat = try c.decodeIfPresent(Double.self, forKey: .latitude)
        let lon = try c.decodeIfPresent(Double.self, forKey: .longitude)
        self.init(id: try c.decode(String.self, forKey: .id), hunt: try c.decode(String.self, forKey: .hunt),
                  player: try c.decode(String.self, forKey: .player), cache: try c.decode(String.self, forKey: .cache),
                  time: try c.decode(Date.self, forKey: .time),
                  location: lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } },
                  method: try c.decode(ClaimMethod.self, forKey: .method),
                  photoSHA256: try c.decodeIfPresent(String.self, forKey: .photoSHA256),
                  firstToFind: try c.decode(Bool.self, forKey: .firstToFind),
                  voidReason: try c.decodeIfPresent(String.self, forKey: .voidReason))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(hunt, forKey: .hunt)
        try c.encode(player, forKey: .player); try c.encode(cache, forKey: .cache)
        try c.encode(time, forKey: .time)
        try c.encodeIfPresent(location?.latitude, forKey: .latitude)
        try c.encodeIfPresent(location?.longitude, forKey: .longitude)
        try c.encode(method, forKey: .method); try c.encodeIfPresent(photoSHA256, forKey: .photoSHA256)
        try c.encode(firstToFind, forKey: .firstToFind); try c.encodeIfPresent(voidReason, forKey: .voidReason)
    }
}

/// What became of a claim.
public enum ClaimOutcome: Sendable, Equatable {
    /// A new find, with the points it earned and the card it granted (nil if already held).
    case found(Find, points: Int, card: String?)
    /// The player had already found the cache: the original find (the claim is idempotent).
    case alreadyFound(Find)
    /// Kept for audit only, with the verdict the ledger kept.
    case attempt(verdict: Verdict)
    /// A claim whose id (``GeoQR/ClaimRecord/claimID``) the ledger already holds, sent again by
    /// a phone that never heard the answer: nothing new is recorded, and this is what the
    /// first sending came to.
    indirect case resent(ClaimOutcome)
}

/// A card in a player's collection: the cache's message and where the card was found.
public struct Card: Sendable, Equatable, Codable {
    /// `C` and the seq of the find that granted it.
    public var id: String
    public var cache: String
    public var cacheName: String
    public var message: String
    public var foundAt: Date
    public var foundLatitude: Double?
    public var foundLongitude: Double?
}

/// A trackable: where it is now and every trip it made.
public struct Trackable: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    /// The player carrying it, or nil.
    public var holder: String?
    /// The cache it sits in, or nil while carried.
    public var cache: String?
    public var trips: [Trip]
    /// Metres over every finished trip.
    public var totalDistance: Double { trips.compactMap(\.distance).reduce(0, +) }
}

/// One leg of a trackable's travels: picked up in one cache, dropped in another.
public struct Trip: Sendable, Equatable, Codable {
    public var leg: Int
    public var player: String
    public var from: String
    /// nil while the trip is under way.
    public var to: String?
    public var pickedUp: Date
    public var dropped: Date?
    /// Metres; nil while under way.
    public var distance: Double?
}

/// A player's line on the leaderboard.
public struct Standing: Sendable, Equatable, Codable {
    public var player: String
    public var name: String
    /// The team the player joined for; nil for none.
    public var team: String?
    public var points: Int
    public var finds: Int

    public init(player: String, name: String, team: String? = nil, points: Int, finds: Int) {
        self.player = player; self.name = name; self.team = team; self.points = points; self.finds = finds
    }
}

/// A hint a player paid to see: recorded once per player and cache (``EventKind/hintRevealed``).
public struct HintReveal: Sendable, Equatable, Codable {
    public var player: String
    public var cache: String
    /// The points it cost, taken off the player's score.
    public var cost: Int
    public var time: Date
}

/// A claim kept for audit and not a find (its verdict says why), as the control room counts
/// them per cache.
public struct Attempt: Sendable, Equatable, Codable {
    /// The seq of the event that recorded it.
    public var seq: Int64
    public var player: String
    /// The cache the code named; nil when no code of this hunt was read.
    public var cache: String?
    /// When the code was scanned.
    public var time: Date
    public var verdict: Verdict
    public var method: ClaimMethod
}

/// A "needs maintenance" report.
public struct Report: Sendable, Equatable, Codable {
    public var id: String
    public var cache: String
    public var player: String
    public var kind: ReportKind
    public var text: String
    public var photoSHA256: String?
    public var filed: Date
    public var resolution: String?
}
