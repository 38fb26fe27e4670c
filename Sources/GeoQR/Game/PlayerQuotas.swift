/// What one player may keep open at once, beyond the rate at which they may ask: the ledger
/// keeps every report and offer for good, and the control room's overview lists every open
/// report, so a player who never stops asking must meet a wall, not only a slower pace. The
/// numbers are far above what a real hunt sees (a player who meets a broken hunt reports a few
/// caches; a trade is answered within minutes and expires within 15 by default).
///
/// ```swift
/// guard open < PlayerQuotas.openReports else { throw GameRuleViolation.tooManyOpenReports(limit: PlayerQuotas.openReports) }
/// ```
public enum PlayerQuotas {
    /// Reports a player has open (not yet resolved) at once. With ``PlayerText/report``'s 4 KB,
    /// one player's share of the control room's open reports is at most 80 KB of text.
    public static let openReports = 20
    /// Trade offers a player has made that are still open (not answered, cancelled or expired).
    /// A class trades a few cards each; 200 leaves room for a game master's give-away of one
    /// card to a whole event (the store's test offers one card to 200 players at once) and
    /// still bounds what one player keeps open (with the rate limit, about 100 KB).
    public static let openTradeOffers = 200
    /// Photos a player may send for one cache's photo task, waiting or rejected: enough to try
    /// again after a rejection or two, and a bound on what one player puts before the game master.
    public static let photoSubmissions = 3
}
