import Foundation

/// A player's attempt to log caches: what was decoded, where and when.
///
/// Everything a judgement needs is in here, the present moment included, so the claim rules
/// never read a clock.
///
/// ```swift
/// let claim = Claim(payloads: ["GQ1.DEMO.A2.K3J5M2QX7P4RT6WA"],
///                   location: ClaimLocation(coordinate: here, source: .at),
///                   claimedAt: Date())
/// for judgement in hunt.judge(claim, secret: secret) { print(judgement.line) }
/// ```
public struct Claim: Sendable, Equatable {
    /// The text of every code decoded from the evidence (a photo, a frame); empty when none.
    public var payloads: [String]
    /// Where the claim was made; nil when nothing says.
    public var location: ClaimLocation?
    /// When the photo was taken by the camera's clock (EXIF DateTimeOriginal), if known.
    public var takenAt: Date?
    /// When the claim is being made.
    public var claimedAt: Date

    public init(payloads: [String], location: ClaimLocation? = nil, takenAt: Date? = nil, claimedAt: Date) {
        self.payloads = payloads
        self.location = location
        self.takenAt = takenAt
        self.claimedAt = claimedAt
    }

    /// The moment the time window is checked against, and what says so. A GPS fix's time is
    /// satellite UTC and wins; then the camera's clock; then the moment of claiming, which is
    /// all a live scan has.
    public var scanTime: (date: Date, source: ScanTimeSource) {
        if let fix = location?.time { return (fix, .location) }
        if let takenAt { return (takenAt, .camera) }
        return (claimedAt, .claim)
    }
}

/// What fixed the moment a claim is judged at. Raw values are stable JSON codes.
public enum ScanTimeSource: String, CaseIterable, Sendable, Codable {
    /// The location fix's own time (a photo's GPS time stamp, a browser's fix).
    case location
    /// The camera's clock (EXIF DateTimeOriginal).
    case camera
    /// The moment the claim was made.
    case claim
}
