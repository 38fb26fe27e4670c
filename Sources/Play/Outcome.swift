import GeoQR
import Ledger

/// What a game action did besides its answer: what a front end that keeps state between
/// requests (the hunt server) must forget, and who should be told. Use cases list their
/// effects; adapters never work them out for themselves.
public enum Effect: Sendable, Equatable {
    /// Points or finds changed: leaderboards are stale.
    case standingsChanged
    /// The caches this player has found changed (a find, a void).
    case findsChanged(player: String)
    /// A cache was disabled or re-opened, or a report was filed or resolved.
    case cacheFlagsChanged
    /// The game master started or stopped the hunt.
    case runningChanged(Bool)
    /// A player joined or signed in: known by id from now on.
    case playerSeen(Player)
    /// A player's PIN was reset: every session signed in with the old one ends.
    case credentialsReset(player: String)
    /// A new find, for everyone listening.
    case found(Find, points: Int)
    /// A claim was judged and recorded (a find or a refused attempt), for the game master's
    /// feed of claims as they happen: the claim as recorded, under the verdict the ledger gave
    /// it (``FeedLine`` is made from these).
    case claimJudged(ClaimRecord, verdict: Verdict, find: String?, points: Int?)
    /// A trade was offered, or ended (accepted, declined, cancelled, expired, failed): both
    /// parties should hear.
    case tradeChanged(TradeOffer)
    /// A course was started or a runner disqualified: course results are stale.
    case coursesChanged
    /// A player was forgotten: whatever is kept of them (their name, their position, their
    /// sessions) must go.
    case playerForgotten(player: String)
    /// The hunt's positions were dropped: none may be kept anywhere.
    case positionsDropped
}

/// An action's answer and its effects.
public struct Outcome<Value: Sendable>: Sendable {
    public var value: Value
    public var effects: [Effect]

    public init(_ value: Value, effects: [Effect] = []) {
        self.value = value
        self.effects = effects
    }
}

/// An action the game refused after it changed something others must hear of (a trade whose
/// acceptance failed its re-check is closed as failed): the reason, and the effects.
public struct Refusal: Error, CustomStringConvertible {
    public var reason: any Error
    public var effects: [Effect]
    public var description: String { "\(reason)" }
}
