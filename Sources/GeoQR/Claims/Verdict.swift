/// What a claim comes to: the one word a player, a script and the ledger all read, from the
/// claim rules through the ledger to every JSON answer.
///
/// The claim rules (``Hunt/judge(_:secret:)``) give the first eight; the ledger adds the two
/// only it can know: ``alreadyFound`` (this player's find of the cache is on record) and
/// ``cacheDisabled`` (the game master closed the cache). The raw values are stable codes,
/// printed by `geoqr scan` and kept in the ledger; never rename one.
///
/// ```swift
/// let verdict = Verdict.tooFar
/// verdict.rawValue    // "too-far"
/// verdict.isFind      // false
/// ```
public enum Verdict: String, CaseIterable, Sendable, Codable {
    /// A genuine code, scanned inside the cache's radius, inside the hunt's time window.
    case claimable
    /// A genuine code, scanned farther from the cache than its radius allows.
    case tooFar = "too-far"
    /// A code that looks like GeoQR's but that this hunt's secret did not sign, or in a format
    /// no GeoQR writes.
    case forged
    /// A GeoQR code for another hunt.
    case unknownHunt = "unknown-hunt"
    /// A code this hunt signed for a cache it no longer has.
    case unknownCache = "unknown-cache"
    /// No GeoQR code at all: nothing decoded, or only other QR codes (a URL, a menu).
    case noCode = "no-code"
    /// A genuine code, but nothing says where it was scanned.
    case noLocation = "no-location"
    /// A genuine code, scanned before the hunt started or after it ended.
    case outsideTimeWindow = "outside-time-window"
    /// A claimable code this player has already found; only the ledger knows, so the claim
    /// rules never return it.
    case alreadyFound = "already-found"
    /// A claimable code for a cache the game master has disabled; given by the ledger, which
    /// keeps the claim as an attempt.
    case cacheDisabled = "cache-disabled"

    /// True only for ``claimable``: the claim may become a find.
    public var isFind: Bool { self == .claimable }

    /// True when the claim was refused: anything but a find, new or earlier. The control room
    /// marks such claims in its feed.
    public var isRefusal: Bool { self != .claimable && self != .alreadyFound }

    /// True when the code may be damaged or misprinted rather than wrong (nothing read, or not
    /// this hunt's signature): the code printed under the QR may still work, so the phone offers
    /// to type it.
    public var offersTypedCode: Bool { [.forged, .noCode, .unknownHunt, .unknownCache].contains(self) }
}
