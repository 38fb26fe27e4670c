import Foundation
import GeoQR

/// The claims of one group-commit batch and what was read of them. A batch's claims are read in
/// one query when the first of them asks; a claim later in the batch is then answered from
/// memory, with what the batch has recorded since laid over the facts read:
/// - a find makes its cache found before, for the claims after it (first-to-find), and joins
///   its player's trail finds;
/// - a claim recorded for a player and a cache makes the facts of the same player's other
///   claims of that cache stale (the live find, the card held), and those of the player's claims
///   sent with its id (sent before);
/// - a write that is not a claim (a join, a trade, a cache disabled…) forgets them all.
/// Stale facts are read again, for that claim alone, after the batch's writes are sent.
struct ClaimFactsCache {
    /// The batch's writes in order (nil for those that are not claims), and the one running.
    var batch: [ClaimKey?] = []
    var position = 0
    /// False when the batch runs guarded: a write rolled back to its savepoint would leave
    /// marks here that the ledger no longer has.
    var enabled = true
    private var known: [ClaimKey: ClaimFacts]?
    private var touched: Set<String> = []
    private var foundCaches: Set<String> = []
    /// Finds recorded in this batch since the facts were read, by player.
    private var newFinds: [String: [TrailFind]] = [:]

    /// The facts of `key`, if they were read for the batch and are still true.
    func facts(for key: ClaimKey) -> ClaimFacts? {
        guard enabled, let facts = known?[key], let player = facts.player else { return nil }
        if touched.contains(player + "\u{1F}" + key.cache) { return nil }
        if !key.claimID.isEmpty && touched.contains(player + "\u{1F}\u{1F}" + key.claimID) { return nil }
        var current = facts
        if foundCaches.contains(key.huntAndCache) { current.foundBefore = true }
        if !key.trailCaches.isEmpty, let mine = newFinds[player] {
            current.trailFinds += mine.filter { key.trailCaches.contains($0.cache) }
        }
        return current
    }

    /// The claims still to run, the running one first, when they should be read together:
    /// nothing is known yet and there is more than one.
    func keysToReadTogether(for key: ClaimKey) -> [ClaimKey]? {
        guard enabled, known == nil, position < batch.count, batch[position] == key else { return nil }
        let keys = batch[position...].compactMap { $0 }
        return keys.count > 1 ? keys : nil
    }

    /// Facts read for the claims ahead: the batch's writes so far are in them.
    mutating func remember(_ read: [ClaimKey: ClaimFacts]) {
        known = read
        touched = []
        newFinds = [:]
    }

    /// A write that is not a claim ran: what was read may no longer hold.
    mutating func forget() { known = nil }

    /// A claim of `player` was recorded: an attempt, or (with its scan time) a find of `key`'s cache.
    mutating func recorded(_ key: ClaimKey, player: String, findTimeMs: Int64?) {
        touched.insert(player + "\u{1F}" + key.cache)
        // Claim ids are each player's own (player ids are unique across hunts: they are seqs).
        if !key.claimID.isEmpty { touched.insert(player + "\u{1F}\u{1F}" + key.claimID) }
        guard let findTimeMs, enabled else { return }
        foundCaches.insert(key.huntAndCache)
        newFinds[player, default: []].append(TrailFind(cache: key.cache, timeMs: findTimeMs))
    }
}
