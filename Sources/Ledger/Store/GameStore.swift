import Foundation
import GeoQR

/// The game's record, as the rules and their callers (the CLI, the hunt server) use it. Every
/// method that changes anything checks the rules (pure functions in ``GeoQR``) inside one write
/// transaction and appends the events that say what happened; it throws
/// ``GeoQR/GameRuleViolation`` when the game refuses, ``LedgerError`` when storage fails, and
/// then nothing is written. Times are passed in: the store keeps no clock.
///
/// ``SQLiteGameStore`` is the embedded implementation; ``PostgresGameStore`` keeps the same
/// ledger in PostgreSQL, for several servers on one hunt, calling the same rules.
///
/// ```swift
/// let store: any GameStore = try SQLiteGameStore(directory: data.path)
/// let ada = try await store.join(hunt: "DEMO", name: "Ada", pin: "4321", team: nil, at: .now)
/// let outcome = try await store.record(claim, in: hunt)
/// ```
public protocol GameStore: Sendable {
    // MARK: Players

    /// Adds a player (name rules in ``GeoQR/PlayerName``; the PIN is stored as a bcrypt hash).
    func join(hunt: String, name: String, pin: String, team: String?, at time: Date) async throws -> Player
    /// Checks a PIN, counting wrong ones towards a lockout (``GeoQR/PINPolicy``).
    func signIn(hunt: String, name: String, pin: String, at time: Date) async throws -> Player
    /// The player with this name (ignoring case) or id.
    func player(hunt: String, named: String) async throws -> Player?
    /// Every player of a hunt, in joining order.
    func players(hunt: String) async throws -> [Player]
    /// The game master gives a player a new PIN (a forgotten one, a lockout to lift): their
    /// wrong-PIN count and lockout are cleared, and only the new PIN signs in from then on.
    ///
    /// ```swift
    /// let ada = try await store.resetPIN(hunt: "DEMO", player: "Ada", pin: "8642", by: "gm", at: .now)
    /// ```
    /// - throws: ``GeoQR/GameRuleViolation/unknownPlayer(_:)``, or `pinTooShort`/`pinTooLong`.
    func resetPIN(hunt: String, player: String, pin: String, by actor: String, at time: Date) async throws -> Player

    // MARK: Sign-ins and wrong guesses
    //
    // Kept in private tables beside the ledger, never in its events: a session is a secret, a
    // wrong guess is no game act. Every server on the store answers every player from them.

    /// Keeps a sign-in session: the SHA-256 (hex) of the token the player's browser holds,
    /// never the token, so a copy of the database signs nobody in.
    ///
    /// ```swift
    /// try await store.keepSession(hunt: "DEMO", player: "P3", tokenSHA256: digest, at: .now)
    /// ```
    func keepSession(hunt: String, player: String, tokenSHA256: String, at time: Date) async throws
    /// The player a session (by its token's SHA-256) signs in, or nil.
    func sessionPlayer(hunt: String, tokenSHA256: String) async throws -> String?
    /// Ends every session of a player (a PIN reset does it too, in its own transaction).
    func endSessions(hunt: String, player: String) async throws
    /// Wrong guesses counted against `subject` (``GeoQR/PINPolicy``'s state; none yet: zero).
    func guesses(hunt: String, subject: String) async throws -> PINState
    /// Counts one wrong guess against `subject` under `policy`, read and written in one
    /// transaction (two servers counting at once both count), and answers the state after it.
    ///
    /// ```swift
    /// let after = try await store.countWrongGuess(hunt: "DEMO", subject: "pin 203.0.113.9 ada",
    ///                                             policy: .perAddress, at: .now)
    /// ```
    func countWrongGuess(hunt: String, subject: String, policy: PINPolicy, at time: Date) async throws -> PINState
    /// A right guess clears the subject's count.
    func clearGuesses(hunt: String, subject: String) async throws
    /// Changes the state kept for `subject` by `change`, read and written in one transaction,
    /// and answers the state after it (a refund of an attempt counted in advance, a trusted
    /// network's expiry).
    ///
    /// ```swift
    /// let after = try await store.changeGuesses(hunt: "DEMO", subject: "pins-for P3") { PINPolicy.perName.afterRefund($0) }
    /// ```
    func changeGuesses(hunt: String, subject: String, _ change: @escaping @Sendable (PINState) -> PINState) async throws -> PINState

    // MARK: Sessions that expire and end

    /// The player a session signs in if it was used since `usedSince`, or nil; a session used
    /// again is marked used at `time` (at most every 10 minutes, so a request costs no write).
    func sessionPlayer(hunt: String, tokenSHA256: String, usedSince: Date, at time: Date) async throws -> String?
    /// Ends one session (a sign-out).
    func endSession(hunt: String, tokenSHA256: String) async throws

    // MARK: Claims and finds

    /// Records a claim: a find when its verdict is `claimable`, else an attempt for audit. The
    /// same claim again answers with the original find. The claim carries the scan time; the
    /// event is stamped `time`, the moment it is recorded.
    func record(_ claim: ClaimRecord, in hunt: Hunt, at time: Date) async throws -> ClaimOutcome
    /// Finds of a hunt, oldest first; one player's when `player` is set. Void finds included.
    func finds(hunt: String, player: String?) async throws -> [Find]
    /// A player's cards, newest first.
    func collection(hunt: String, player: String) async throws -> [Card]
    /// Players by points, then by finds, then by name.
    func leaderboard(hunt: String) async throws -> [Standing]
    /// The points each find of a hunt counts for now, by find id (awards of a voided find are
    /// gone, so it counts for nothing and is not listed).
    ///
    /// ```swift
    /// let points = try await store.pointsByFind(hunt: "DEMO")["F12"] ?? 0   // 15
    /// ```
    func pointsByFind(hunt: String) async throws -> [String: Int]
    /// Claims of a hunt kept for audit and not finds, oldest first.
    ///
    /// ```swift
    /// let forged = try await store.attempts(hunt: "DEMO").filter { $0.verdict == .forged }
    /// ```
    func attempts(hunt: String) async throws -> [Attempt]

    // MARK: Hints

    /// Records that `player` paid `cost` points to see `cache`'s hint, taking them off their
    /// score, unless they already did: then nothing is written and the first record answers.
    /// The caller decides the cost (``GeoQR/Hunt/hintCost``); the ledger keeps what was paid.
    ///
    /// ```swift
    /// let (reveal, isNew) = try await store.revealHint(cache: "A1", cost: 5, to: "P3", in: hunt, at: .now)
    /// ```
    /// - throws: ``GeoQR/GameRuleViolation/unknownCache(_:)``, `unknownPlayer`.
    func revealHint(cache: String, cost: Int, to player: String, in hunt: Hunt,
                    at time: Date) async throws -> (reveal: HintReveal, isNew: Bool)
    /// The hints paid for in a hunt, oldest first; one player's when `player` is set.
    func hints(hunt: String, player: String?) async throws -> [HintReveal]

    // MARK: Trackables

    /// The game master puts a new trackable into a cache.
    func seedTrackable(name: String, into cache: String, in hunt: Hunt, by actor: String, at time: Date) async throws -> Trackable
    /// A player who found the cache takes the trackable out of it.
    func pickUp(trackable: String, from cache: String, by player: String, in hunt: Hunt, at time: Date) async throws -> Trackable
    /// Its holder puts it into another cache they found, ending a trip.
    func drop(trackable: String, into cache: String, by player: String, in hunt: Hunt, at time: Date) async throws -> Trackable
    /// A trackable with its trips.
    func trackable(hunt: String, id: String) async throws -> Trackable?
    /// Every trackable of a hunt, in seeding order, with their trips.
    func trackables(hunt: String) async throws -> [Trackable]

    // MARK: Trades

    /// Offers `give` (the offerer's items) for `receive` (the other's). Open for `lifetime`.
    func offerTrade(hunt: String, from: String, to: String, give: [String], receive: [String],
                    at time: Date, lifetime: TimeInterval) async throws -> TradeOffer
    /// Accepts: re-checks and moves every item at once, or fails with the reason (the trade is
    /// then closed as failed or expired).
    func acceptTrade(hunt: String, id: String, by player: String, at time: Date) async throws -> TradeOffer
    /// The recipient says no.
    func declineTrade(hunt: String, id: String, by player: String, at time: Date) async throws -> TradeOffer
    /// The offerer withdraws.
    func cancelTrade(hunt: String, id: String, by player: String, at time: Date) async throws -> TradeOffer
    /// A trade as it stands now.
    func trade(hunt: String, id: String) async throws -> TradeOffer?

    // MARK: Reports

    /// A player says a cache needs maintenance.
    func fileReport(cache: String, kind: ReportKind, text: String, photoSHA256: String?,
                    by player: String, in hunt: Hunt, at time: Date) async throws -> Report
    /// The game master closes a report.
    func resolveReport(hunt: String, id: String, resolution: String, by actor: String, at time: Date) async throws -> Report
    /// Reports not yet resolved, oldest first.
    func openReports(hunt: String) async throws -> [Report]

    // MARK: Game master

    /// Voids a find: its points go; its card goes too if the finder still holds it.
    func voidFind(hunt: String, id: String, reason: String, by actor: String, at time: Date) async throws -> Find
    /// Adds (or, negative, takes) points, with a reason.
    func adjustPoints(hunt: String, player: String, amount: Int, reason: String, by actor: String, at time: Date) async throws
    /// Disables (or re-enables) a cache: claims on a disabled cache are kept as attempts.
    func setCacheDisabled(_ disabled: Bool, cache: String, reason: String, in hunt: Hunt, by actor: String, at time: Date) async throws
    /// Caches the game master has disabled.
    func disabledCaches(hunt: String) async throws -> Set<String>
    /// Records that the hunt's secret was rotated (see ``GeoQR/SecretRotation``).
    func recordSecretRotation(hunt: String, fingerprint: String, by actor: String, at time: Date) async throws
    /// Finds the game master should look at (``GeoQR/CheatFlags``): too fast between two
    /// finds, the same photo as another player, exactly the cache's coordinates.
    func flags(in hunt: Hunt) async throws -> [CheatFlag]
    /// Starts or stops the hunt (a stopped hunt refuses claims and trades in the server).
    /// Answers whether anything changed: starting a running hunt records nothing.
    @discardableResult
    func setHuntRunning(_ running: Bool, hunt: String, by actor: String, at time: Date) async throws -> Bool
    /// Whether the hunt is running: it is until the game master first stops it.
    func huntRunning(hunt: String) async throws -> Bool

    // MARK: The ledger

    /// Events after `seq`, oldest first, at most `limit`.
    func events(after seq: Int64, limit: Int) async throws -> [LedgerEvent]
    /// Recomputes the hash chain and rebuilds the derived state from the events.
    func verify() async throws -> LedgerVerification

    // MARK: The outbox
    //
    // The events table is the outbox every server follows: it reads the events after the
    // last one it handled (``events(after:limit:)``) whenever it is woken.

    /// The seq of the last event (0 for an empty ledger): where a server starts following.
    func headSeq() async throws -> Int64
    /// What every process following the store hears, or nil when the store cannot tell
    /// (SQLite: the server that wrote wakes its own follower, other processes, the `geoqr gm`
    /// commands, are read on a timer, and there is no other server to tell news to).
    /// PostgreSQL's come from `LISTEN`: ``StoreNotice/appended`` when a trigger on `events`
    /// notifies as an append commits (and once whenever the listener (re)connects, since notices
    /// may have been missed meanwhile), ``StoreNotice/news(_:)`` for each ``publish(news:)``.
    ///
    /// ```swift
    /// if let notices = store.notices() { for await notice in notices { … } }
    /// ```
    func notices() -> AsyncStream<StoreNotice>?
    /// Tells every process following the store (``notices()``) something the ledger does not
    /// hold: a game-master message to every player, a claim as the control room sees it. At
    /// most ``maxNewsBytes``; a store with no one else to tell does nothing.
    func publish(news: String) async throws
}

/// What a process following the store hears (``GameStore/notices()``).
public enum StoreNotice: Sendable, Equatable {
    /// Events may have been appended: read what follows the last one read.
    case appended
    /// News one process published for the others (``GameStore/publish(news:)``).
    case news(String)
}

/// The longest news ``GameStore/publish(news:)`` carries (PostgreSQL's NOTIFY takes 8000 bytes).
public let maxNewsBytes = 7900

extension GameStore {
    /// Records a claim stamped with its own time (tests, tools that replay claims).
    public func record(_ claim: ClaimRecord, in hunt: Hunt) async throws -> ClaimOutcome {
        try await record(claim, in: hunt, at: claim.time)
    }
}
