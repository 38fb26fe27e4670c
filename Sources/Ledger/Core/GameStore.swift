import Foundation
import GeoQR

/// The game's record, as the rules and their callers (the CLI, the hunt server) use it.
///
/// A store is an engine: it runs ``LedgerAct``s (facts, a decision, events) in its write
/// transactions, committed in groups, and ``LedgerRead``s on a snapshot; everything else, every
/// act of the game and every read of it, is written once over those two in `Ledger/Acts`
/// (`GameStore+Players.swift`, `+Claims`, `+Trades`…), so both stores run the very same rules
/// and queries. An act that changes anything checks the rules (pure functions in ``GeoQR``) and
/// appends the events that say what happened; it throws ``GeoQR/GameRuleViolation`` when the
/// game refuses, ``LedgerError`` when storage fails, and then nothing is written. Times are passed
/// in: the store keeps no clock.
///
/// ``SQLiteGameStore`` is the embedded engine; ``PostgresGameStore`` keeps the same ledger in
/// PostgreSQL, for several servers on one hunt.
///
/// ```swift
/// let store: any GameStore = try SQLiteGameStore(directory: data.path)
/// let ada = try await store.join(hunt: "DEMO", name: "Ada", pin: "4321", team: nil, at: .now)
/// let outcome = try await store.record(claim, in: hunt)
/// ```
public protocol GameStore: Sendable {
    /// The settings the acts run with (bcrypt's cost, the PIN policy, the scoring).
    var rules: LedgerRules { get }

    /// Runs `act` in the next group commit: reads its facts, appends the events it decided,
    /// applies them to the derived tables, and answers once they are durable.
    func perform<Answer: Sendable>(_ act: LedgerAct<Answer>) async throws -> Answer
    /// Runs `read` on the ledger as committed.
    func query<Answer: Sendable>(_ read: LedgerRead<Answer>) async throws -> Answer

    /// Recomputes the hash chain and rebuilds the derived state from the events.
    func verify() async throws -> LedgerVerification

    /// Overwrites, where the engine keeps them, the old copies of what an act deleted or
    /// replaced (dropped positions, a forgotten player): SQLite zeroes deleted content as it
    /// goes (`secure_delete`) and here empties its write-ahead log into the file; PostgreSQL
    /// vacuums the tables that held them.
    ///
    /// ```swift
    /// _ = try await store.forgetPlayer(hunt: "DEMO", player: "Ada", by: GameMaster.actor, at: .now)
    /// try await store.scrub()
    /// ```
    func scrub() async throws

    // MARK: The outbox
    //
    // The events table is the outbox every server follows: it reads the events after the
    // last one it handled (``events(after:limit:)``) whenever it is woken.

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

/// What the acts of a store run with.
public struct LedgerRules: Sendable {
    /// bcrypt's cost (log2 rounds).
    public var pinCost: UInt8
    public var pinPolicy: PINPolicy
    public var scoring: Scoring
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
