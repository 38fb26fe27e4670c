import Foundation
import GeoQR

// The bodies of events. Each carries every decision the rules made when it was written (ids,
// points, distances), so replaying events never needs the hunt files or the rules' code of the
// day: verification rebuilds exactly what was recorded.

/// Body of ``EventKind/playerJoined``. The PIN's hash is kept in the private `credentials`
/// table, never in the event: the ledger is published with a hunt's results.
struct PlayerJoined: Codable, Sendable {
    var player: String
    var name: String
    var nameKey: String
    /// Only in bodies written before migration "v3: credentials outside the chain", which moved
    /// it to `credentials`; the verifier puts it back to recompute those events' hashes.
    var pinHash: String?
    var team: String?
}

/// Body of ``EventKind/pinReset``: the game master gave the player a new PIN. Its hash goes to
/// `credentials`; the event says only whose, and clears their wrong-PIN count and lockout.
struct PINReset: Codable, Sendable {
    var player: String
}

/// Body of ``EventKind/pinChecked``: the player's PIN state after a check.
struct PINChecked: Codable, Sendable {
    var player: String
    var success: Bool
    var state: PINState
}

/// Body of ``EventKind/claimAttempted``: a claim kept for audit, not a find.
struct ClaimAttempted: Codable, Sendable {
    var claim: ClaimRecord
    /// The verdict the ledger kept (the caller's, or `cache-disabled`, `unknown-cache`).
    var verdict: ClaimVerdictCode
}

/// Body of ``EventKind/findRecorded``.
struct FindRecorded: Codable, Sendable {
    var find: String
    var claim: ClaimRecord
    var firstToFind: Bool
    var awards: [PointsAward]
    /// The card the find granted; nil when the player already held one of this cache.
    var card: CardGrant?
}

/// The card a find grants.
struct CardGrant: Codable, Sendable {
    var item: String
    var cache: String
    var cacheName: String
    var message: String
}

/// Body of ``EventKind/trackableSeeded``.
struct TrackableSeeded: Codable, Sendable {
    var trackable: String
    var name: String
    var cache: String
}

/// Body of ``EventKind/trackablePickedUp``.
struct TrackablePickedUp: Codable, Sendable {
    var trackable: String
    var player: String
    var cache: String
}

/// Body of ``EventKind/trackableDropped``.
struct TrackableDropped: Codable, Sendable {
    var trackable: String
    var player: String
    var cache: String
    var distanceM: Double
}

/// Body of ``EventKind/tradeOffered``.
struct TradeOffered: Codable, Sendable {
    var trade: TradeOffer
}

/// Body of ``EventKind/tradeAccepted``.
struct TradeAccepted: Codable, Sendable {
    var trade: String
    var moves: [ItemMove]
}

/// Body of ``EventKind/tradeClosed``: declined, cancelled, expired, or failed a re-check.
struct TradeClosed: Codable, Sendable {
    var trade: String
    var state: TradeState
    var reason: String?
}

/// Body of ``EventKind/reportFiled``.
struct ReportFiled: Codable, Sendable {
    var report: String
    var player: String
    var cache: String
    var kind: ReportKind
    var text: String
    var photoSHA256: String?
}

/// Body of ``EventKind/reportResolved``.
struct ReportResolved: Codable, Sendable {
    var report: String
    var resolution: String
}

/// Body of ``EventKind/findVoided``.
struct FindVoided: Codable, Sendable {
    var find: String
    var reason: String
    /// The card the find granted, taken back because its finder still held it.
    var retractedCard: String?
}

/// Body of ``EventKind/pointsAdjusted``.
struct PointsAdjusted: Codable, Sendable {
    var player: String
    var amount: Int
    var reason: String
}

/// Body of ``EventKind/cacheAvailability``.
struct CacheAvailability: Codable, Sendable {
    var cache: String
    var disabled: Bool
    var reason: String
}

/// Body of ``EventKind/secretRotated``.
struct SecretRotated: Codable, Sendable {
    var fingerprint: String
}

/// Body of ``EventKind/huntStarted`` and ``EventKind/huntStopped``: the kind says it all.
struct HuntRunning: Codable, Sendable {}

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
