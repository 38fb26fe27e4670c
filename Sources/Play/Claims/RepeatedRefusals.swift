import Foundation
import GeoQR
import Synchronization

/// A camera sends several frames a second while its player aims, and the phone's own decoder
/// sends each code it reads: held at a code from too far away, it would make the ledger keep
/// the same refusal eight times a second, for good. The first refusal of a kind (player, cache,
/// verdict) in a minute is recorded; the rest are answered, not recorded, nor sent to the
/// control room. Finds are never held back.
///
/// ```swift
/// if refusals.isNew(player: "P3", cache: "A1", verdict: .tooFar, at: now) { record it }
/// ```
final class RepeatedRefusals: Sendable {
    /// How long a refusal of one kind is recorded once.
    static let window: TimeInterval = 60
    /// The most kinds remembered; past it (thousands of players all aiming in one minute),
    /// refusals are recorded again, as they were before, within the frame rate limit.
    static let capacity = 20_000

    private struct Kind: Hashable {
        var player: String
        var cache: String?
        var verdict: Verdict
    }

    private let recent = Mutex<[Kind: Date]>([:])

    init() {}

    /// True when this refusal is the first of its kind within ``window`` (so it is recorded).
    ///
    /// A code this hunt did not sign (forged, another hunt's, a cache it no longer has) names
    /// whatever cache its maker wrote: such refusals are one kind whatever cache they name.
    func isNew(player: String, cache: String?, verdict: Verdict, at now: Date) -> Bool {
        let genuine = ![.forged, .unknownHunt, .unknownCache].contains(verdict)
        let kind = Kind(player: player, cache: genuine ? cache : nil, verdict: verdict)
        return recent.withLock { recent in
            if let last = recent[kind], now.timeIntervalSince(last) >= 0, now.timeIntervalSince(last) < Self.window {
                return false
            }
            if recent.count >= Self.capacity {
                recent = recent.filter { now.timeIntervalSince($0.value) < Self.window }
                guard recent.count < Self.capacity else { return true }
            }
            recent[kind] = now
            return true
        }
    }
}
