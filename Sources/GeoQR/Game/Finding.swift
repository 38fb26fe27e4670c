/// The rules that turn a claim into a find.
///
/// ```swift
/// switch Finding.decide(claim, cache: hunt.cache(id: claim.cache ?? ""), disabled: false,
///                       existingFind: nil) {
/// case .newFind: …            // record a find, its card and points
/// case .repeatOf(let id): …   // the same claim again: answer with find `id`
/// case .attempt(let verdict): … // keep for audit only
/// }
/// ```
public enum Finding {
    /// What becomes of a claim.
    public enum Decision: Sendable, Equatable {
        /// A first find of this cache by this player.
        case newFind
        /// The player already found this cache: the original find answers (idempotent).
        case repeatOf(findID: String)
        /// Not a find: kept as an attempt with this verdict.
        case attempt(Verdict)
    }

    /// Decides a claim. `existingFind` is the player's non-void find of the cache, if any.
    public static func decide(_ claim: ClaimRecord, cache: Cache?, disabled: Bool,
                              existingFind: String?) -> Decision {
        guard claim.verdict == .claimable else {
            // "already-found" from a caller still answers with the find it refers to.
            if claim.verdict == .alreadyFound, let existingFind { return .repeatOf(findID: existingFind) }
            return .attempt(claim.verdict)
        }
        guard cache != nil else { return .attempt(.unknownCache) }
        if let existingFind { return .repeatOf(findID: existingFind) }
        if disabled { return .attempt(.cacheDisabled) }
        return .newFind
    }

    /// A find grants the cache's card unless the player already holds one (from a trade):
    /// a player never holds two of the same card.
    public static func grantsCard(playerHoldsCardOfCache: Bool) -> Bool {
        !playerHoldsCardOfCache
    }
}
