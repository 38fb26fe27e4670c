import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

// The JSON the API speaks, as plain Codable values. Field names are snake_case where they
// carry units (distanceM), as the OpenAPI file documents them.

/// Name and PIN, for joining and for signing in again.
struct Credentials: Decodable {
    var name: String
    var pin: String
    var team: String?
}

/// What joining or signing in returns: the token to send as `Authorization: Bearer …`.
struct SignedIn: ResponseEncodable {
    var token: String
    var player: Player
}

/// A place and how sure the browser is of it.
struct Position: Codable {
    var latitude: Double
    var longitude: Double
    var accuracy: Double?

    func checked(source: LocationSource = .browser) throws -> ClaimLocation {
        let coordinate: Coordinate
        do { coordinate = try Coordinate.checked(latitude: latitude, longitude: longitude) } catch {
            throw APIError(.unprocessableContent, "bad-location", error.description)
        }
        return ClaimLocation(coordinate: coordinate, accuracy: try Self.accuracy(accuracy), source: source)
    }

    /// The rules' check of an accuracy (``GeoQR/ClaimLocation/checkedAccuracy(_:)``), as a 422.
    static func accuracy(_ accuracy: Double?) throws -> Double? {
        do { return try ClaimLocation.checkedAccuracy(accuracy) } catch {
            throw APIError(.unprocessableContent, "bad-location", error.description)
        }
    }
}

/// The hunt as players see it: never its secret.
struct HuntView: ResponseEncodable {
    var id: String
    var name: String
    var radiusM: Double
    var start: Date?
    var end: Date?
    var running: Bool
    var coordinatesShown: Bool
    var trails: [TrailView]
    var caches: Int
    /// The teams players may join for; empty when any team name will do.
    var teams: [String]
    /// Points a hint costs; 0 when hints are free.
    var hintCost: Int
    /// How long after a scan a claim kept offline may still be sent, in minutes.
    var offlineGraceMinutes: Int
    /// How long players' positions are kept after the hunt ends, in hours (the join screen
    /// says so).
    var positionRetentionHours: Double
    /// Where the cache id sits in a code (``GeoQR/CodePatterns``): the offline outbox names
    /// the caches of the claims it keeps from these.
    var codePatterns: [String]
}

struct TrailView: Codable {
    var id: String
    var name: String
    var ordered: Bool
    var caches: [String]
}

/// A cache as a player sees it: no message until found (that is in the collection), no code.
struct CacheView: Codable {
    var id: String
    var name: String
    var trail: String?
    var difficulty: Double
    var terrain: Double
    var points: Int
    var radiusM: Double
    var hint: String?
    /// When hints cost points: the price of this cache's hint, and whether this player paid.
    var hintCost: Int?
    var hintRevealed: Bool?
    var found: Bool
    /// The next cache to find on its ordered trail (``GeoQR/Hunt/nextOnTrails(found:)``).
    var next: Bool
    var disabled: Bool
    var flagged: Bool
    var latitude: Double?
    var longitude: Double?
    var distanceM: Double?
    var bearingDeg: Double?
    /// The compass point in words ("north-east"), for phones without a compass.
    var direction: String?
    /// What the cache asks of its finders ("question" or "photo"), told to its finders only.
    var challenge: String?
}

/// Written by hand (``PolledResponses``): every phone polls it.
struct CacheList: Encodable {
    var caches: [CacheView]
}

struct Me: ResponseEncodable {
    var player: Player
    var points: Int
    var finds: Int
}

struct FindList: ResponseEncodable { var finds: [Find] }
struct CardList: ResponseEncodable { var cards: [Card] }
struct TrackableList: ResponseEncodable { var trackables: [Trackable] }
struct PlayerList: ResponseEncodable { var players: [PublicPlayer] }
/// Written by hand (``PolledResponses``): every phone polls it.
/// `GET /api/leaderboard`: every player's line with its rank, and the teams'.
struct Leaderboard: Encodable { var standings: [Results.Placing]; var teams: [TeamStanding] }
struct TradeList: ResponseEncodable { var incoming: [TradeOffer]; var outgoing: [TradeOffer] }
struct ReportList: ResponseEncodable { var reports: [Report] }

/// A player as other players see them: id, name, team.
struct PublicPlayer: Codable {
    var id: String
    var name: String
    var team: String?
}

extension Player: ResponseEncodable {}
extension TradeOffer: ResponseEncodable {}
extension Report: ResponseEncodable {}
extension Trackable: ResponseEncodable {}
extension Find: ResponseEncodable {}
extension ForgottenPlayer: ResponseEncodable {}
extension Standing: ResponseEncodable {}

struct ItemList: ResponseEncodable { var items: [Item] }
