import Foundation

/// The verdict on one code of a claim, with the figures behind it.
///
/// ```swift
/// let j = hunt.judge(payload, secret: secret, claim: claim)
/// j.verdict     // .tooFar
/// j.line        // too-far: walk 240 m north-east (bearing 47°) to A2 Salt pan view, radius 40 m
/// j.sentence    // Salt pan view is 240 m north-east: walk on.
/// ```
public struct ClaimJudgement: Sendable, Equatable {
    public var verdict: Verdict
    /// The decoded text this judgement is about; nil for ``Verdict/noCode`` with nothing decoded.
    public var payload: String?
    /// The cache the code names, once the code is known to be genuine (or names a cache this
    /// hunt signed but no longer has).
    public var cacheID: String?
    public var cacheName: String?
    /// For ``Verdict/unknownHunt``: the hunt the code belongs to.
    public var otherHuntID: String?
    /// Metres along the WGS84 ellipsoid from the claim's location to the cache.
    public var distance: Double?
    /// Degrees clockwise from true north to set off in, from the claim's location to the cache.
    public var bearing: Double?
    /// The cache's claim radius in metres.
    public var radius: Double?
    /// The distance allowed: the radius plus the location's accuracy, capped by the hunt.
    public var allowed: Double?
    /// Where the claim was made, as given.
    public var location: ClaimLocation?
    /// The moment checked against the hunt's time window, and what fixed it.
    public var scanTime: Date
    public var scanTimeSource: ScanTimeSource
    /// The hunt's window, for ``Verdict/outsideTimeWindow``.
    public var windowStart: Date?
    public var windowEnd: Date?
    /// Why a code was refused, in words (for forged, unknown hunt or cache).
    public var reason: String?

    init(verdict: Verdict, payload: String?, claim: Claim) {
        self.verdict = verdict
        self.payload = payload
        self.location = claim.location
        (scanTime, scanTimeSource) = claim.scanTime
    }

    /// The compass point to walk towards, when there is a bearing.
    public var direction: CompassPoint? { bearing.map(CompassPoint.init(bearing:)) }

    /// `A2 Salt pan view`, or whatever part of it is known.
    public var cacheLabel: String {
        [cacheID, cacheName].compactMap { $0 }.joined(separator: " ")
    }
}
