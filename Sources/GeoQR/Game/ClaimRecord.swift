import Crypto
import Foundation

/// A claim as the ledger receives it from a caller (the scanner, the server, the command line):
/// who claimed which cache, when, from where, how, with what evidence, and the verdict the
/// caller reached. A `claimable` verdict becomes a find; any other is kept as an attempt.
///
/// ```swift
/// let claim = ClaimRecord(player: "P1", hunt: "DEMO", cache: "A1", time: photoTime,
///                         location: exifLocation, method: .photo,
///                         evidence: ClaimEvidence(photoSHA256: digest, exifTime: photoTime),
///                         verdict: .claimable)
/// ```
public struct ClaimRecord: Sendable, Equatable, Codable {
    /// The player's id in the ledger (`P1`…).
    public var player: String
    public var hunt: String
    /// The cache id the code named; nil when no code was read.
    public var cache: String?
    /// When the claim was made (the photo's time when it has one).
    public var time: Date
    /// Where it was made; nil when nothing said.
    public var location: Coordinate?
    public var method: ClaimMethod
    public var evidence: ClaimEvidence
    /// The caller's verdict (the claim rules'); the ledger may answer with its own
    /// (``Verdict/alreadyFound``, ``Verdict/cacheDisabled``).
    public var verdict: Verdict
    /// The random id a phone gave the claim, so that sending it again (a network that came and
    /// went) records it once; nil for claims that are not resent.
    public var claimID: String?
    /// For a claim a phone kept while it had no network: how many seconds after the scan it
    /// arrived. The game master sees such finds marked late.
    public var lateSeconds: Int?

    public init(player: String, hunt: String, cache: String?, time: Date, location: Coordinate?,
                method: ClaimMethod, evidence: ClaimEvidence = ClaimEvidence(), verdict: Verdict,
                claimID: String? = nil, lateSeconds: Int? = nil) {
        self.claimID = claimID
        self.lateSeconds = lateSeconds
        self.player = player
        self.hunt = hunt
        self.cache = cache
        self.time = time
        self.location = location
        self.method = method
        self.evidence = evidence
        self.verdict = verdict
    }

    private enum CodingKeys: String, CodingKey {
        case player, hunt, cache, time, location, method, evidence, verdict
        case claimID = "claimId", lateSeconds
    }

    /// A location as JSON: `{"lat": 40.6303, "lon": -8.6575}`.
    private struct LatLon: Codable {
        var lat: Double
        var lon: Double
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        player = try c.decode(String.self, forKey: .player)
        hunt = try c.decode(String.self, forKey: .hunt)
        cache = try c.decodeIfPresent(String.self, forKey: .cache)
        time = try c.decode(Date.self, forKey: .time)
        location = try c.decodeIfPresent(LatLon.self, forKey: .location)
            .map { Coordinate(latitude: $0.lat, longitude: $0.lon) }
        method = try c.decode(ClaimMethod.self, forKey: .method)
        evidence = try c.decode(ClaimEvidence.self, forKey: .evidence)
        verdict = try c.decode(Verdict.self, forKey: .verdict)
        claimID = try c.decodeIfPresent(String.self, forKey: .claimID)
        lateSeconds = try c.decodeIfPresent(Int.self, forKey: .lateSeconds)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(player, forKey: .player)
        try c.encode(hunt, forKey: .hunt)
        try c.encodeIfPresent(cache, forKey: .cache)
        try c.encode(time, forKey: .time)
        try c.encodeIfPresent(location.map { LatLon(lat: $0.latitude, lon: $0.longitude) }, forKey: .location)
        try c.encode(method, forKey: .method)
        try c.encode(evidence, forKey: .evidence)
        try c.encode(verdict, forKey: .verdict)
        try c.encodeIfPresent(claimID, forKey: .claimID)
        try c.encodeIfPresent(lateSeconds, forKey: .lateSeconds)
    }
}

/// How a claim reached the ledger.
public enum ClaimMethod: String, Sendable, Codable, CaseIterable {
    /// A photo of the code, located by its EXIF GPS (or `--at`).
    case photo
    /// A camera frame, located by the browser or a fixed station.
    case camera
    /// The URL form of a code opened in a phone's browser, located by the browser.
    case link
    /// The short code printed under the QR (``TypedCode``), typed by a player whose phone
    /// cannot scan, located by the browser.
    case typed
    /// Entered by the game master.
    case gameMaster = "game-master"
}

/// What backs a claim up, kept for audit and for the anti-cheat flags.
public struct ClaimEvidence: Sendable, Equatable, Codable {
    /// Lower-case hex SHA-256 of the photo's bytes.
    public var photoSHA256: String?
    /// DateTimeOriginal (or GPS time) from the photo.
    public var exifTime: Date?

    public init(photoSHA256: String? = nil, exifTime: Date? = nil) {
        self.photoSHA256 = photoSHA256
        self.exifTime = exifTime
    }

    /// Evidence from a photo's bytes: their SHA-256, which tells when two claims used the same photo.
    public init(photo bytes: Data, exifTime: Date?) {
        self.init(photoSHA256: SHA256.hash(data: bytes).hex, exifTime: exifTime)
    }
}
