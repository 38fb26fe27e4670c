import Foundation
import GeoQR
import Ledger

/// One claim as the control room's feed shows it, made in one place from the claim as the
/// ledger keeps it: live, as the claim is judged, and for a stream that resumes, from the
/// events it missed. The page writes it in its reader's language from the verdict code (the
/// words are the web app's), so no sentence travels in it.
///
/// ```swift
/// let line = FeedLine(record, verdict: .claimable, find: "F12", points: 15, name: "Ada", team: nil, in: hunt, at: now)
/// ```
public struct FeedLine: Sendable, Equatable, Encodable {
    public var player, name: String
    public var team: String?
    public var method, verdict: String
    /// The verdict's ``GeoQR/Verdict/isRefusal``, so the feed need not know which verdicts refuse.
    public var refused: Bool
    public var cache, cacheName: String?
    /// From where the claim was made to the cache, when both are known.
    public var distanceM: Double?
    public var find: String?
    public var points: Int?
    public var scanTime: Date
    /// Set for a claim a phone kept while offline: how long after the scan it arrived.
    public var lateSeconds: Int?
    /// When the ledger recorded it.
    public var at: Date

    /// The line for `claim` as recorded, under the verdict the ledger gave it (`already-found`
    /// and `cache-disabled` included), by the player named `name`.
    public init(_ claim: ClaimRecord, verdict: Verdict, find: String?, points: Int?, name: String, team: String?,
                in hunt: Hunt, at time: Date) {
        let site = claim.cache.flatMap(hunt.cache(id:))
        player = claim.player
        self.name = name
        self.team = team
        method = claim.method.rawValue
        self.verdict = verdict.rawValue
        refused = verdict.isRefusal
        cache = claim.cache
        cacheName = site?.name
        distanceM = site.flatMap { s in claim.location.map { $0.distance(to: s.coordinate) } }
        self.find = find
        self.points = points
        scanTime = claim.time
        lateSeconds = claim.lateSeconds
        at = time
    }

    /// The line for the claim an event records (a find, or an attempt refused), or nil for any
    /// other event.
    public static func recorded(in event: LedgerEvent) throws -> (claim: ClaimRecord, verdict: Verdict, find: String?, points: Int?)? {
        switch try event.decodedBody() {
        case .findRecorded(let body): (body.claim, .claimable, body.find, body.points)
        case .claimAttempted(let body): (body.claim, body.verdict, nil, nil)
        default: nil
        }
    }
}
