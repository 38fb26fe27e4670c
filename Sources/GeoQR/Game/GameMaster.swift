/// The game master as the ledger names them. Only the game master holds the data directory
/// and the admin token, so every act from `geoqr gm …` or the control room is theirs.
///
/// ```swift
/// try await store.voidFind(hunt: "DEMO", id: "F12", reason: "same photo", by: GameMaster.actor, at: now)
/// ```
public enum GameMaster {
    /// The actor of every game-master event. Ledgers written before this name was settled also
    /// hold `game-master` (acts from the admin page); both verify, since the chain hashes
    /// whatever was written.
    public static let actor = "gm"

    /// The most points one adjustment adds or takes: a typo of a few zeros is refused, not
    /// written into the ledger for good.
    public static let maxAdjustment = 1_000_000

    /// Checks an adjustment's amount against ``maxAdjustment``.
    public static func checkAdjustment(_ amount: Int) throws {
        guard abs(amount) <= maxAdjustment else { throw GameRuleViolation.adjustmentOutOfRange(amount) }
    }
}
