import Foundation
import GeoQR

/// A claim as the batch it waits in knows it, before its player's name is resolved.
struct ClaimKey: Hashable, Sendable {
    let hunt: String
    /// The player as the claim names them: an id or a name.
    let player: String
    /// The cache's id, or "" when the code named none.
    let cache: String
    /// The claim's id, or "" when it was sent without one.
    let claimID: String
    /// The caches of the trails the cache is on (``NewFind/trailCaches(of:in:)``), sorted: the
    /// player's finds of these come with the facts, for the trail bonus.
    let trailCaches: [String]

    var huntAndCache: String { hunt + "\u{1F}" + cache }
}

/// A player's live find of a trail's cache, as the trail bonus orders them.
struct TrailFind: Codable, Sendable, Equatable {
    let cache: String
    let timeMs: Int64
}

/// What the rules need to judge a claim, as the ledger had it when they were read.
struct ClaimFacts: Sendable {
    /// The player's id, or nil when the claim names nobody in the hunt.
    var player: String?
    /// A claim of the same player with the same id was recorded before.
    var sentBefore: Bool
    /// The player's live find of the cache.
    var existingFind: Find?
    var disabled: Bool
    /// Somebody has a live find of the cache.
    var foundBefore: Bool
    /// The player holds the cache's card (from a trade).
    var holdsCard: Bool
    /// The player's live finds of the key's trail caches, oldest in the ledger first.
    var trailFinds: [TrailFind]
}
