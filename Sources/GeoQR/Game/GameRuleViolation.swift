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
    /// Format or bidirectional characters (zero-width space, RLO…) that hide what a name shows.
    case nameHasInvisibleCharacters
    /// The name has the shape of a player id (`P160`), which names a player wherever ids do.
    case nameLooksLikeID(String)
    /// The name looks the same as an existing player's (UTS #39 skeleton): the second value.
    case nameConfusable(String, with: String)
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
    /// Free text over its cap in UTF-8 bytes (``PlayerText``).
    case textTooLarge(field: String, maxBytes: Int)
    /// Free text with more combining marks on one character, or in all, than ``PlayerText`` allows.
    case tooManyMarks(field: String, perCharacter: Int, total: Int)
    /// Free text with control characters or bidirectional overrides.
    case textHasControlCharacters(field: String)
    /// The player already has this many reports open (``PlayerQuotas/openReports``).
    case tooManyOpenReports(limit: Int)
    /// The player already has this many trade offers open (``PlayerQuotas/openTradeOffers``).
    case tooManyOpenTrades(limit: Int)
    case reasonMissing
    /// A game master's adjustment beyond ``GameMaster/maxAdjustment`` points either way.
    case adjustmentOutOfRange(Int)
    case reportAlreadyResolved(String)
    case findAlreadyVoided(String)
    /// The cache has no hint to reveal.
    case noHint(String)
    case unknownCourse(String)
    /// A hint costs more points than the player has (a player without a team, in a team hunt).
    case notEnoughPoints(have: Int, cost: Int)
    /// The cache asks no question.
    case noChallenge(String)
    /// Every try at the cache's question was used.
    case noTriesLeft(String)
    /// The course starts with its start code: it has no mass start to give.
    case notAMassStart(String)
    /// The cache sets no photo task.
    case noPhotoTask(String)
    /// The player has sent as many photos for this cache's task as it takes (``PlayerQuotas/photoSubmissions``).
    case tooManyPhotos(cache: String, limit: Int)
    /// The game master already approved one of the player's photos for this cache.
    case photoTaskDone(String)
    case unknownSubmission(String)
    case submissionAlreadyJudged(String)
    /// Positions are dropped only once the hunt has ended (stopped, or past its end).
    case huntNotEnded(String)
    /// The hunt ended, but its positions are kept until then (``PositionRetention``).
    case positionsKept(until: Date)

    /// A short, stable, kebab-case name for scripts (`name-taken`, `trade-item-gone`…).
    public var code: String {
        switch self {
        case .nameEmpty: "name-empty"
        case .nameTooLong: "name-too-long"
        case .nameHasControlCharacters: "name-control-characters"
        case .nameTaken: "name-taken"
        case .nameHasInvisibleCharacters: "name-invisible-characters"
        case .nameLooksLikeID: "name-like-player-id"
        case .nameConfusable: "name-confusable"
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
        case .textTooLarge: "text-too-large"
        case .tooManyMarks: "text-too-many-marks"
        case .textHasControlCharacters: "text-control-characters"
        case .tooManyOpenReports: "too-many-open-reports"
        case .tooManyOpenTrades: "too-many-open-trades"
        case .reasonMissing: "reason-missing"
        case .adjustmentOutOfRange: "adjustment-out-of-range"
        case .reportAlreadyResolved: "report-already-resolved"
        case .findAlreadyVoided: "find-already-voided"
        case .noHint: "no-hint"
        case .unknownCourse: "unknown-course"
        case .notEnoughPoints: "not-enough-points"
        case .noChallenge: "no-challenge"
        case .noTriesLeft: "no-tries-left"
        case .notAMassStart: "not-a-mass-start"
        case .noPhotoTask: "no-photo-task"
        case .tooManyPhotos: "too-many-photos"
        case .photoTaskDone: "photo-task-done"
        case .unknownSubmission: "unknown-submission"
        case .submissionAlreadyJudged: "submission-already-judged"
        case .huntNotEnded: "hunt-not-ended"
        case .positionsKept: "positions-kept"
        }
    }

    /// What went wrong, in English (``phrase`` for the reader's language).
    public var description: String { phrase.description }

    /// The refusal as a ``Phrase`` (`error.` and its ``code``), for a player's language.
    public var phrase: Phrase {
        let values: [String: Phrase.Value]
        switch self {
        case .nameEmpty, .badTeamName: values = ["max": .integer(PlayerName.maxLength)]
        case .nameTooLong(let n): values = ["max": .integer(PlayerName.maxLength), "count": .integer(n)]
        case .nameHasControlCharacters, .nameHasInvisibleCharacters, .tradeWithSelf, .tradeEmpty, .reasonMissing: values = [:]
        case .nameTaken(let n), .nameLooksLikeID(let n): values = ["name": .text(n)]
        case .nameConfusable(let n, let twin): values = ["name": .text(n), "other": .text(twin)]
        case .textTooLarge(let field, let max): values = ["field": .text(field), "max": .integer(max)]
        case .tooManyMarks(let field, let each, let total):
            values = ["field": .text(field), "each": .integer(each), "total": .integer(total)]
        case .textHasControlCharacters(let field): values = ["field": .text(field)]
        case .tooManyOpenReports(let limit), .tooManyOpenTrades(let limit): values = ["limit": .integer(limit)]
        case .pinTooShort: values = ["min": .integer(PINPolicy.minLength)]
        case .pinTooLong: values = ["max": .integer(PINPolicy.maxLength)]
        case .lockedOut(let until): values = ["time": .text(ISO8601DateFormatter().string(from: until))]
        case .wrongPIN(let left): values = ["left": .integer(left)]
        case .unknownPlayer(let p): values = ["player": .text(p)]
        case .unknownCache(let c), .cacheDisabled(let c), .sameCache(let c): values = ["cache": .text(c)]
        case .unknownItem(let i), .notACard(let i), .notATrackable(let i), .tradeItemListedTwice(let i), .tradeItemGone(let i):
            values = ["item": .text(i)]
        case .unknownTrade(let t), .tradeExpired(let t), .notYourTrade(let t): values = ["trade": .text(t)]
        case .unknownReport(let r), .reportAlreadyResolved(let r): values = ["report": .text(r)]
        case .unknownFind(let f), .findAlreadyVoided(let f): values = ["find": .text(f)]
        case .notClaimable(let v): values = ["verdict": .text(v)]
        case .notHolding(let item, let player): values = ["item": .text(item), "player": .text(player)]
        case .trackableNotInCache(let t, let c): values = ["trackable": .text(t), "cache": .text(c)]
        case .cacheNotFoundByPlayer(let c, let p), .tradeDuplicateCard(let p, let c): values = ["cache": .text(c), "player": .text(p)]
        case .tradeNotOpen(let id, let state): values = ["trade": .text(id), "state": .text(state)]
        case .textTooLong(let field, let limit): values = ["field": .text(field), "limit": .integer(limit)]
        case .teamNotInHunt(let team, let teams):
            values = ["team": .text(team), "teams": .text(teams.joined(separator: ", "))]
        case .noHint(let c): values = ["cache": .text(c)]
        case .unknownCourse(let c), .notAMassStart(let c): values = ["course": .text(c)]
        case .notEnoughPoints(let have, let cost): values = ["have": .integer(have), "cost": .integer(cost)]
        case .noChallenge(let c), .noTriesLeft(let c), .noPhotoTask(let c), .photoTaskDone(let c): values = ["cache": .text(c)]
        case .tooManyPhotos(let c, let limit): values = ["cache": .text(c), "limit": .integer(limit)]
        case .unknownSubmission(let s), .submissionAlreadyJudged(let s): values = ["submission": .text(s)]
        case .huntNotEnded(let h): values = ["hunt": .text(h)]
        case .positionsKept(let until): values = ["time": .text(ISO8601DateFormatter().string(from: until))]
        case .adjustmentOutOfRange(let n): values = ["amount": .integer(n), "max": .integer(GameMaster.maxAdjustment)]
        }
        return Phrase("error." + code, values)
    }
}
