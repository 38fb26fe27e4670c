import Foundation
import GeoQR

/// What a claim that the rules accept as a new find writes and answers, whichever store
/// records it: the claim as the ledger keeps it, the `find-recorded` body with its awards and
/// card, and the outcome. The store reads the facts (``Finding/decide``'s inputs, the player's
/// earlier finds on the cache's trails) and appends the body; this decides everything else.
///
/// ```swift
/// let claim = claim.normalized(for: hunt)
/// let body = NewFind.body(seq: seq, claim: claim, cache: cache, hunt: hunt, scoring: scoring,
///                         firstToFind: true, playerHoldsCard: false, earlierTrailFinds: [])
/// ```
enum NewFind {
    /// The caches whose earlier finds the awards depend on: those of the trails through
    /// `cache` (none when it is on no trail, and then no earlier find need be read).
    static func trailCaches(of cache: String, in hunt: Hunt) -> Set<String> {
        Set(hunt.trails.filter { $0.cacheIDs.contains(cache) }.flatMap(\.cacheIDs))
    }

    /// The event body for the find that event `seq` records. `earlierTrailFinds` are the
    /// player's live finds of ``trailCaches(of:in:)``, with their scan times in milliseconds.
    static func body(seq: Int64, claim: ClaimRecord, cache: Cache, hunt: Hunt, scoring: Scoring,
                             firstToFind: Bool, playerHoldsCard: Bool,
                             earlierTrailFinds: [(cache: String, timeMs: Int64)]) -> FindRecorded {
        let inOrder = (earlierTrailFinds + [(cache: cache.id, timeMs: claim.time.millisecondsSince1970)])
            .enumerated().sorted { ($0.element.timeMs, $0.offset) < ($1.element.timeMs, $1.offset) }
            .map(\.element.cache)
        let awards = scoring.awards(for: cache, in: hunt, firstToFind: firstToFind, findsInOrder: inOrder)
        return FindRecorded(find: "F\(seq)", claim: claim, firstToFind: firstToFind, awards: awards,
                            card: Finding.grantsCard(playerHoldsCardOfCache: playerHoldsCard)
                                ? CardGrant(item: "C\(seq)", cache: cache.id, cacheName: cache.name, message: cache.message)
                                : nil)
    }

    /// What the claimant is told once `body` is appended in `hunt`.
    static func outcome(of body: FindRecorded, hunt: String) -> ClaimOutcome {
        let claim = body.claim
        let find = Find(id: body.find, hunt: hunt, player: claim.player, cache: claim.cache ?? "", time: claim.time,
                        location: claim.location, method: claim.method, photoSHA256: claim.evidence.photoSHA256,
                        firstToFind: body.firstToFind, voidReason: nil)
        return .found(find, points: body.points, card: body.card?.item)
    }
}

extension ClaimRecord {
    /// The claim as the ledger keeps it: hunt and cache in upper case, times in whole
    /// milliseconds (so replaying the JSON gives the same), and a claimable claim for another
    /// hunt turned into `unknownHunt`.
    func normalized(for hunt: Hunt) -> ClaimRecord {
        var claim = self
        claim.hunt = claim.hunt.uppercased()
        claim.cache = claim.cache?.uppercased()
        claim.time = Date(millisecondsSince1970: claim.time.millisecondsSince1970)
        claim.evidence.exifTime = claim.evidence.exifTime.map { Date(millisecondsSince1970: $0.millisecondsSince1970) }
        if claim.hunt != hunt.id, claim.verdict == .claimable { claim.verdict = .unknownHunt }
        return claim
    }
}
