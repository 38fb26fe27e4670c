import Foundation
import GeoQR

// The bodies of events, as typed values every reader uses (``LedgerEvent/decodedBody()``):
// nothing outside the ledger parses a body by its keys. Each carries every decision the rules
// made when it was written (ids, points, distances), so replaying events never needs the hunt
// files or the rules' code of the day: verification rebuilds exactly what was recorded. Only the
// ledger writes them.

/// Body of ``EventKind/playerJoined``. The PIN's hash is kept in the private `credentials`
/// table, never in the event: the ledger is published with a hunt's results. Since format 2
/// seals it (``EventSeal``), the name is in the body's private part, so that forgetting the
/// player (``PlayerForgotten``) can take it out of the ledger without breaking the chain; a
/// forgotten join reads with an empty name. Joins written before keep the name in the hashed
/// text, where it stays.
public struct PlayerJoined: Codable, Sendable, Equatable {
    public var player: String
    public var name: String
    public var nameKey: String
    /// Only in bodies written before migration "v3: credentials outside the chain", which moved
    /// it to `credentials`; the verifier puts it back to recompute those events' hashes. Never
    /// shown outside the ledger.
    var pinHash: String?
    public var team: String?
}

/// Body of ``EventKind/pinReset``: the game master gave the player a new PIN. Its hash goes to
/// `credentials`; the event says only whose, and clears their wrong-PIN count and lockout.
public struct PINReset: Codable, Sendable, Equatable {
    public var player: String
}

/// Body of ``EventKind/pinChecked``: the player's PIN state after a check.
public struct PINChecked: Codable, Sendable, Equatable {
    public var player: String
    public var success: Bool
    public var state: PINState
}

/// Body of ``EventKind/claimAttempted``: a claim kept for audit, not a find.
public struct ClaimAttempted: Codable, Sendable, Equatable {
    public var claim: ClaimRecord
    /// The verdict the ledger kept (the caller's, or `cache-disabled`, `unknown-cache`).
    public var verdict: Verdict
}

/// Body of ``EventKind/findRecorded``.
public struct FindRecorded: Codable, Sendable, Equatable {
    public var find: String
    public var claim: ClaimRecord
    public var firstToFind: Bool
    public var awards: [PointsAward]
    /// The card the find granted; nil when the player already held one of this cache.
    public var card: CardGrant?

    /// What the find earned when it was recorded: the sum of its awards.
    public var points: Int { awards.map(\.amount).reduce(0, +) }
}

/// The card a find grants.
public struct CardGrant: Codable, Sendable, Equatable {
    public var item: String
    public var cache: String
    public var cacheName: String
    public var message: String
}

/// Body of ``EventKind/trackableSeeded``.
public struct TrackableSeeded: Codable, Sendable, Equatable {
    public var trackable: String
    public var name: String
    public var cache: String
}

/// Body of ``EventKind/trackablePickedUp``.
public struct TrackablePickedUp: Codable, Sendable, Equatable {
    public var trackable: String
    public var player: String
    public var cache: String
}

/// Body of ``EventKind/trackableDropped``.
public struct TrackableDropped: Codable, Sendable, Equatable {
    public var trackable: String
    public var player: String
    public var cache: String
    public var distanceM: Double
}

/// Body of ``EventKind/tradeOffered``.
public struct TradeOffered: Codable, Sendable, Equatable {
    public var trade: TradeOffer
}

/// Body of ``EventKind/tradeAccepted``.
public struct TradeAccepted: Codable, Sendable, Equatable {
    public var trade: String
    public var moves: [ItemMove]
}

/// Body of ``EventKind/tradeClosed``: declined, cancelled, expired, or failed a re-check.
public struct TradeClosed: Codable, Sendable, Equatable {
    public var trade: String
    public var state: TradeState
    public var reason: String?
}

/// Body of ``EventKind/reportFiled``.
public struct ReportFiled: Codable, Sendable, Equatable {
    public var report: String
    public var player: String
    public var cache: String
    public var kind: ReportKind
    public var text: String
    public var photoSHA256: String?
}

/// Body of ``EventKind/reportResolved``.
public struct ReportResolved: Codable, Sendable, Equatable {
    public var report: String
    public var resolution: String
}

/// Body of ``EventKind/findVoided``.
public struct FindVoided: Codable, Sendable, Equatable {
    public var find: String
    public var reason: String
    /// The card the find granted, taken back because its finder still held it.
    public var retractedCard: String?
}

/// Body of ``EventKind/pointsAdjusted``.
public struct PointsAdjusted: Codable, Sendable, Equatable {
    public var player: String
    public var amount: Int
    public var reason: String
}

/// Body of ``EventKind/cacheAvailability``.
public struct CacheAvailability: Codable, Sendable, Equatable {
    public var cache: String
    public var disabled: Bool
    public var reason: String
}

/// Body of ``EventKind/secretRotated``.
public struct SecretRotated: Codable, Sendable, Equatable {
    public var fingerprint: String
}

/// Body of ``EventKind/hintRevealed``: a player paid `cost` points to see a cache's hint.
public struct HintRevealed: Codable, Sendable, Equatable {
    public var player: String
    public var cache: String
    public var cost: Int
}

/// Body of ``EventKind/courseStarted``: the game master gave a course's mass start (at the
/// event's time).
public struct CourseStarted: Codable, Sendable, Equatable {
    public var course: String
}

/// Body of ``EventKind/runnerDisqualified``: the game master disqualified a runner of a course.
public struct RunnerDisqualified: Codable, Sendable, Equatable {
    public var player: String
    public var course: String
    public var reason: String
}

/// Body of ``EventKind/challengeAnswered``: a finder answered a cache's question, right or
/// wrong, and won (or, wrong, lost) `points`. The answer's text is not kept: whether it was
/// right is what counts, and a player's words stay off the published ledger.
public struct ChallengeAnswered: Codable, Sendable, Equatable {
    public var player: String
    public var cache: String
    public var correct: Bool
    public var points: Int
    /// The phone's id for the answer, so that sending it twice records it once.
    public var answerId: String?
    /// When it was answered, when the phone kept it with no network (milliseconds).
    public var answeredMs: Int64?
}

/// Body of ``EventKind/photoSubmitted``: a finder sent a photo for a cache's photo task. The
/// ledger keeps the photo's SHA-256; the photo itself stays in the server's data directory.
public struct PhotoSubmitted: Codable, Sendable, Equatable {
    /// The submission's id, `S` and the event's sequence number.
    public var submission: String
    public var player: String
    public var cache: String
    public var photoSHA256: String
}

/// Body of ``EventKind/photoJudged``: the game master approved a photo (and the finder won
/// `points`) or rejected it, saying why. The reason is in the private part: a game master's
/// words about a photo may name or describe a person.
public struct PhotoJudged: Codable, Sendable, Equatable {
    public var submission: String
    public var player: String
    public var cache: String
    public var approved: Bool
    /// Won on approval (the challenge's points, once per player and cache); 0 on rejection.
    public var points: Int
    public var reason: String
}

/// Body of ``EventKind/huntStarted`` and ``EventKind/huntStopped``: the kind says it all.
public struct HuntRunning: Codable, Sendable, Equatable {}

/// The one JSON form of bodies: compact, keys sorted, times in milliseconds.
enum BodyCoding {
    static func encode(_ value: some Encodable) throws -> String {
        // The bodies of the hot path are written by hand, to the same bytes (CanonicalJSON).
        if let canonical = value as? any CanonicalJSONBody {
            var json = JSONWriter()
            canonical.write(to: &json)
            return json.text
        }
        return try encodeWithJSONEncoder(value)
    }

    static func encodeWithJSONEncoder(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, from body: String) throws -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try decoder.decode(type, from: Data(body.utf8))
    }
}

// Reading format-2 bodies (``EventSeal``): the private fields come from the `"private"` object
// where the body holds it, and from their own keys in a body of format 1. A published body
// holds only the commitment, and reads with those fields empty.

/// The key of a format-2 body's private part.
private enum SealKey: String, CodingKey { case `private` }

/// The value of `"private"` as the ledger stores it; nil in a format-1 body, and in a published
/// one, which holds only its commitment (a string).
private func privatePart<P: Decodable>(_ type: P.Type, from decoder: any Decoder) throws -> P? {
    let c = try decoder.container(keyedBy: SealKey.self)
    guard c.contains(.private), (try? c.decode(String.self, forKey: .private)) == nil else { return nil }
    return try c.decode(P.self, forKey: .private)
}

/// A claim's private part: where the player stood.
private struct ClaimPrivate: Decodable {
    struct LatLon: Decodable { var lat: Double; var lon: Double }
    var location: LatLon?
    var coordinate: Coordinate? { location.map { Coordinate(latitude: $0.lat, longitude: $0.lon) } }
}

extension ClaimAttempted {
    private enum Keys: String, CodingKey { case claim, verdict }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        claim = try c.decode(ClaimRecord.self, forKey: .claim)
        verdict = try c.decode(Verdict.self, forKey: .verdict)
        if let sealed = try privatePart(ClaimPrivate.self, from: decoder) { claim.location = sealed.coordinate }
    }
}

extension FindRecorded {
    private enum Keys: String, CodingKey { case find, claim, firstToFind, awards, card }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        find = try c.decode(String.self, forKey: .find)
        claim = try c.decode(ClaimRecord.self, forKey: .claim)
        firstToFind = try c.decode(Bool.self, forKey: .firstToFind)
        awards = try c.decode([PointsAward].self, forKey: .awards)
        card = try c.decodeIfPresent(CardGrant.self, forKey: .card)
        if let sealed = try privatePart(ClaimPrivate.self, from: decoder) { claim.location = sealed.coordinate }
    }
}

extension ReportFiled {
    private enum Keys: String, CodingKey { case report, player, cache, kind, text, photoSHA256 }
    private struct Private: Decodable { var text: String; var photoSHA256: String? }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        report = try c.decode(String.self, forKey: .report)
        player = try c.decode(String.self, forKey: .player)
        cache = try c.decode(String.self, forKey: .cache)
        kind = try c.decode(ReportKind.self, forKey: .kind)
        if let sealed = try privatePart(Private.self, from: decoder) {
            (text, photoSHA256) = (sealed.text, sealed.photoSHA256)
        } else {
            text = try c.decodeIfPresent(String.self, forKey: .text) ?? ""
            photoSHA256 = try c.decodeIfPresent(String.self, forKey: .photoSHA256)
        }
    }
}

extension ReportResolved {
    private enum Keys: String, CodingKey { case report, resolution }
    private struct Private: Decodable { var resolution: String }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        report = try c.decode(String.self, forKey: .report)
        resolution = try privatePart(Private.self, from: decoder)?.resolution
            ?? c.decodeIfPresent(String.self, forKey: .resolution) ?? ""
    }
}

extension PhotoJudged {
    private enum Keys: String, CodingKey { case submission, player, cache, approved, points, reason }
    private struct Private: Decodable { var reason: String }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        submission = try c.decode(String.self, forKey: .submission)
        player = try c.decode(String.self, forKey: .player)
        cache = try c.decode(String.self, forKey: .cache)
        approved = try c.decode(Bool.self, forKey: .approved)
        points = try c.decode(Int.self, forKey: .points)
        reason = try privatePart(Private.self, from: decoder)?.reason ?? c.decodeIfPresent(String.self, forKey: .reason) ?? ""
    }
}

extension PlayerJoined {
    private enum Keys: String, CodingKey { case player, name, nameKey, pinHash, team }
    private struct Private: Decodable { var name: String; var nameKey: String }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        player = try c.decode(String.self, forKey: .player)
        team = try c.decodeIfPresent(String.self, forKey: .team)
        pinHash = try c.decodeIfPresent(String.self, forKey: .pinHash)
        if let sealed = try privatePart(Private.self, from: decoder) {
            (name, nameKey) = (sealed.name, sealed.nameKey)
        } else {
            name = try c.decodeIfPresent(String.self, forKey: .name) ?? ""
            nameKey = try c.decodeIfPresent(String.self, forKey: .nameKey) ?? ""
        }
    }
}

extension PINChecked {
    private struct Fields: Decodable { var player: String; var success: Bool; var state: PINState }

    public init(from decoder: any Decoder) throws {
        let fields = try privatePart(Fields.self, from: decoder) ?? Fields(from: decoder)
        (player, success, state) = (fields.player, fields.success, fields.state)
    }
}

extension PINReset {
    private struct Fields: Decodable { var player: String }

    public init(from decoder: any Decoder) throws {
        player = try (privatePart(Fields.self, from: decoder) ?? Fields(from: decoder)).player
    }
}
