import Foundation
import GeoQR
import Ledger

/// What became of one code of a claim: the one answer shape of every front end. The phone's
/// claim answer, `geoqr scan --json`, `geoqr claim --json` and `geoqr watch --json` all write
/// it, with the same keys (camelCase, as the whole API), from ``fields``.
///
/// ```swift
/// let answer = try await game.claimCode(code, at: here, method: .link, by: "P3").value.best
/// answer.verdict     // .claimable
/// answer.sentence.text(in: .pt)   // "Salt pan view encontrada: a 12 m da cache."
/// answer.sentence.description     // "Salt pan view found: 12 m from the cache."
/// answer.find        // "F42"
/// ```
public struct ClaimAnswer: Sendable, Equatable {
    /// The verdict after the ledger: the rules' own, or `already-found`, `cache-disabled`.
    public var verdict: Verdict
    /// What a player is told, written in their language when the answer is (``fields(in:)``).
    public var sentence: Phrase
    /// One line for a terminal, verdict code included.
    public var line: String
    /// The decoded text this answer is about.
    public var payload: String?
    public var cache: String?
    public var cacheName: String?
    /// For `unknown-hunt`: the hunt the code belongs to.
    public var otherHunt: String?
    /// Why a code was refused, in words.
    public var reason: String?
    public var distanceM: Double?
    public var bearingDeg: Double?
    /// The compass point to walk towards, written in words ("north-east") in the answer's language.
    public var direction: CompassPoint?
    public var radiusM: Double?
    public var allowedM: Double?
    public var locationSource: LocationSource?
    public var latitude: Double?
    public var longitude: Double?
    public var accuracyM: Double?
    /// The moment judged against the hunt's window, and what fixed it.
    public var scanTime: Date
    public var scanTimeSource: ScanTimeSource
    /// What the ledger made of it; nil when the claim was only judged (`geoqr scan`), or not
    /// recorded (a camera frame with no code).
    public var outcome: Recorded?
    /// The find (new or earlier), its points when new, whether it was the cache's first, the
    /// card it granted, and the cache's message it reveals.
    public var find: String?
    public var points: Int?
    public var firstToFind: Bool?
    public var card: String?
    public var message: String?
    /// For a claim a phone kept while it had no network: how many seconds after the scan it
    /// arrived (it was judged at the scan's time and place).
    public var lateSeconds: Int?

    /// How the ledger kept a claim.
    public enum Recorded: String, Sendable {
        /// A new find.
        case found
        /// The player's earlier find of the cache answers.
        case alreadyFound = "already-found"
        /// Kept for the game master, not a find.
        case attempt
    }

    /// True when the code is a find, new or earlier.
    public var isFind: Bool { outcome == .found || outcome == .alreadyFound || (outcome == nil && verdict == .claimable) }

    /// The rules' answer, before the ledger.
    public init(judgement j: ClaimJudgement, hunt: Hunt) {
        verdict = j.verdict
        sentence = j.phrase
        line = j.line
        payload = j.payload
        cache = j.cacheID
        cacheName = j.cacheName
        otherHunt = j.otherHuntID
        reason = j.reason
        distanceM = j.distance
        bearingDeg = j.bearing
        direction = j.direction
        radiusM = j.radius
        allowedM = j.allowed
        locationSource = j.location?.source
        latitude = j.location?.coordinate.latitude
        longitude = j.location?.coordinate.longitude
        accuracyM = j.location?.accuracy
        scanTime = j.scanTime
        scanTimeSource = j.scanTimeSource
    }

    /// What the ledger made of the claim.
    mutating func apply(_ outcome: ClaimOutcome, hunt: Hunt) {
        let name = ClaimJudgement.name(cacheName ?? cache)
        switch outcome {
        case .found(let f, let p, let granted):
            self.outcome = .found
            (find, points, firstToFind, card) = (f.id, p, f.firstToFind, granted)
            message = hunt.cache(id: f.cache)?.message
        case .alreadyFound(let f):
            self.outcome = .alreadyFound
            verdict = .alreadyFound
            find = f.id
            message = hunt.cache(id: f.cache)?.message
            sentence = Phrase("claim.already-found", ["name": name])
            line = "\(cache ?? f.cache) \(cacheName ?? ""): already found (\(f.id), \(ISOTime.text(f.time)))"
        case .resent(let earlier):
            apply(earlier, hunt: hunt)
        case .attempt(let kept):
            self.outcome = .attempt
            guard kept != verdict else { return }
            verdict = kept
            sentence = kept == .cacheDisabled ? Phrase("claim.cache-disabled", ["name": name])
                                              : Phrase("claim.not-accepted", ["verdict": .text(kept.rawValue)])
            line = "\([cache, cacheName].compactMap { $0 }.joined(separator: " ")): \(kept.rawValue)"
        }
    }

}
