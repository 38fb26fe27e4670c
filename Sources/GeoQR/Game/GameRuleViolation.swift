import Foundation

/// Why the game refused an act: a player's mistake or a conflict with what already happened.
///
/// Each case has a stable ``code`` for scripts and the HTTP API, and a description a person can
/// act on:
///
/// ```swift
/// do { try PlayerName.check("", taken: []) }
/// catch { print(error.code, error) }   // name-empty  a player name needs 1 to 32 characters
/// ```
public enum GameRuleViolation: Error, Equatable, Sendable, CustomStringConvertible {
    case nameEmpty
    case nameTooLong(Int)
    case nameHasControlCharacters
    case nameTaken(String)
    case badTeamName
    /// The hunt lists its teams and this is not one of them.
    case teamNotInHunt(String, teams: [String])
    case pinTooShort
    case pinTooLong
    case lockedOut(until: Date)
    case wrongPIN(remainingTries: Int)
    case unknownPlayer(String)
    case unknownCache(String)
    case unknownItem(String)
    case unknownTrade(String)
    case unknownReport(String)
    case unknownFind(String)
    case cacheDisabled(String)
    case notClaimable(verdict: String)
    case notHolding(item: String, player: String)
    case notACard(String)
    case notATrackable(String)
    case trackableNotInCache(trackable: String, cache: String)
    case cacheNotFoundByPlayer(cache: String, player: String)
    case sameCache(String)
    case tradeWithSelf
    case tradeEmpty
    case tradeItemListedTwice(String)
    case tradeNotOpen(id: String, state: String)
    case tradeExpired(String)
    case tradeItemGone(item: String)
    case tradeDuplicateCard(player: String, cache: String)
    case notYourTrade(String)
    case textTooLong(field: String, limit: Int)
    case reasonMissing
    case reportAlreadyResolved(String)
    case findAlreadyVoided(String)
    /// The cache has no hint to reveal.
    case noHint(String)

    /// A short, stable, kebab-case name for scripts (`name-taken`, `trade-item-gone`…).
    public var code: String {
        switch self {
        case .nameEmpty: "name-empty"
        case .nameTooLong: "name-too-long"
        case .nameHasControlCharacters: "name-control-characters"
        case .nameTaken: "name-taken"
        case .badTeamName: "bad-team"
        case .teamNotInHunt: "unknown-team"
        case .pinTooShort: "pin-too-short"
        case .pinTooLong: "pin-too-long"
        case .lockedOut: "locked-out"
        case .wrongPIN: "wrong-pin"
        case .unknownPlayer: "unknown-player"
        case .unknownCache: "unknown-cache"
        case .unknownItem: "unknown-item"
        case .unknownTrade: "unknown-trade"
        case .unknownReport: "unknown-report"
        case .unknownFind: "unknown-find"
        case .cacheDisabled: "cache-disabled"
        case .notClaimable: "not-claimable"
        case .notHolding: "not-holding"
        case .notACard: "not-a-card"
        case .notATrackable: "not-a-trackable"
        case .trackableNotInCache: "trackable-not-in-cache"
        case .cacheNotFoundByPlayer: "cache-not-found-by-player"
        case .sameCache: "same-cache"
        case .tradeWithSelf: "trade-with-self"
        case .tradeEmpty: "trade-empty"
        case .tradeItemListedTwice: "trade-item-listed-twice"
        case .tradeNotOpen: "trade-not-open"
        case .tradeExpired: "trade-expired"
        case .tradeItemGone: "trade-item-gone"
        case .tradeDuplicateCard: "trade-duplicate-card"
        case .notYourTrade: "not-your-trade"
        case .textTooLong: "text-too-long"
        case .reasonMissing: "reason-missing"
        case .reportAlreadyResolved: "report-already-resolved"
        case .findAlreadyVoided: "find-already-voided"
        case .noHint: "no-hint"
        }
    }

    public var description: String {
        switch self {
        case .nameEmpty: "a player name needs 1 to \(PlayerName.maxLength) characters"
        case .nameTooLong(let n): "a player name has at most \(PlayerName.maxLength) characters (this one has \(n))"
        case .nameHasControlCharacters: "a player name cannot contain control characters (tabs, newlines…)"
        case .nameTaken(let n): "the name \"\(n)\" is taken in this hunt (names ignore case): choose another"
        case .badTeamName: "a team name has 1 to \(PlayerName.maxLength) characters and no control characters"
        case .teamNotInHunt(let team, let teams):
            "\"\(team)\" is not a team of this hunt: choose \(teams.count == 1 ? teams[0] : teams.dropLast().joined(separator: ", ") + " or " + teams.last!)"
        case .pinTooShort: "a PIN needs at least \(PINPolicy.minLength) characters"
        case .pinTooLong: "a PIN has at most \(PINPolicy.maxLength) characters"
        case .lockedOut(let until): "too many wrong PINs: try again after \(ISO8601DateFormatter().string(from: until))"
        case .wrongPIN(let left): "wrong PIN (\(left) more before a lockout)"
        case .unknownPlayer(let p): "no player \(p) in this hunt"
        case .unknownCache(let c): "no cache \(c) in this hunt"
        case .unknownItem(let i): "no item \(i) in this hunt"
        case .unknownTrade(let t): "no trade \(t) in this hunt"
        case .unknownReport(let r): "no report \(r) in this hunt"
        case .unknownFind(let f): "no find \(f) in this hunt"
        case .cacheDisabled(let c): "cache \(c) is disabled by the game master"
        case .notClaimable(let v): "a claim with verdict \(v) is kept for audit, not recorded as a find"
        case .notHolding(let item, let player): "\(player) does not hold \(item)"
        case .notACard(let i): "\(i) is not a card"
        case .notATrackable(let i): "\(i) is not a trackable"
        case .trackableNotInCache(let t, let c): "trackable \(t) is not in cache \(c)"
        case .cacheNotFoundByPlayer(let c, let p): "\(p) has not found cache \(c) yet: find it first"
        case .sameCache(let c): "the trackable was picked up from \(c): drop it in another cache"
        case .tradeWithSelf: "a trade needs two different players"
        case .tradeEmpty: "a trade offers at least one item"
        case .tradeItemListedTwice(let i): "item \(i) is listed twice in the trade"
        case .tradeNotOpen(let id, let state): "trade \(id) is \(state), no longer open"
        case .tradeExpired(let id): "trade \(id) expired"
        case .tradeItemGone(let i): "item \(i) changed hands since the offer"
        case .tradeDuplicateCard(let p, let c): "\(p) would hold two cards of cache \(c)"
        case .notYourTrade(let t): "trade \(t) is not yours to answer"
        case .textTooLong(let field, let limit): "\(field) has at most \(limit) characters"
        case .reasonMissing: "a game-master act needs a reason"
        case .reportAlreadyResolved(let r): "report \(r) is already resolved"
        case .findAlreadyVoided(let f): "find \(f) is already void"
        case .noHint(let c): "cache \(c) has no hint"
        }
    }
}
