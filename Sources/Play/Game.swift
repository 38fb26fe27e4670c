import Foundation
import GeoQR
import Ledger

/// One hunt being played: its rules, its record and its clock. Every game action (join, claim,
/// trade, trackable, report, every game-master act) is a method of `Game`, written once; the
/// `geoqr` commands and the hunt server's controllers only parse their input, call it, and
/// render what it returns.
///
/// ```swift
/// let game = Game(hunt: hunt, secret: secret, store: try SQLiteGameStore(directory: data.path))
/// let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
/// let answers = try await game.claimPhoto(bytes, by: ada.id).value
/// print(answers.best.sentence)
/// ```
public struct Game: Sendable {
    public let hunt: Hunt
    /// The secret the hunt's codes are signed with; nil where no codes were printed (then
    /// claims are refused with ``PlayError/noSecret(_:)``, everything else works).
    public let secret: HuntSecret?
    public let store: any GameStore
    /// The present moment; tests pass a fixed one.
    public let clock: @Sendable () -> Date
    /// Whether the game master has the hunt running: the ledger's answer, unless the caller
    /// keeps it between requests (the server asks on every claim).
    public let running: @Sendable () async throws -> Bool

    public init(hunt: Hunt, secret: HuntSecret?, store: any GameStore, clock: @escaping @Sendable () -> Date = { Date() },
                running: (@Sendable () async throws -> Bool)? = nil) {
        self.hunt = hunt
        self.secret = secret
        self.store = store
        self.clock = clock
        let id = hunt.id
        self.running = running ?? { try await store.huntRunning(hunt: id) }
    }

    /// Claims, trades and trackables wait while the game master has the hunt stopped.
    func requireRunning() async throws {
        guard try await running() else { throw PlayError.huntStopped }
    }

    var huntID: String { hunt.id }

    func requireSecret() throws(PlayError) -> HuntSecret {
        guard let secret else { throw .noSecret(hunt.id) }
        return secret
    }
}

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
    /// A new find, for everyone listening.
    case found(Find, points: Int)
    /// A trade was offered, or ended (accepted, declined, cancelled, expired, failed): both
    /// parties should hear.
    case tradeChanged(TradeOffer)
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

/// Why an action could not start, before the game's own rules were asked.
public enum PlayError: Error, Equatable, CustomStringConvertible {
    /// The hunt has no secret in this data directory: no code could be checked.
    case noSecret(String)
    /// The game master has stopped the hunt: claims, trades and trackables wait.
    case huntStopped
    /// A broadcast must say something, briefly.
    case badBroadcast
    /// Several trackables share this name: name one by id.
    case ambiguousTrackable(String, ids: [String])

    public var code: String {
        switch self {
        case .noSecret: "no-secret"
        case .huntStopped: "hunt-stopped"
        case .badBroadcast: "bad-message"
        case .ambiguousTrackable: "ambiguous-trackable"
        }
    }

    public var description: String {
        switch self {
        case .noSecret(let hunt): "hunt \(hunt) has no secret here: no codes were printed with this data directory"
        case .huntStopped: "the game master has stopped the hunt for now"
        case .badBroadcast: "a broadcast has 1 to \(GameMasterActs.broadcastLimit) characters"
        case .ambiguousTrackable(let name, let ids):
            "\(ids.count) trackables are called \(name): name one by id (\(ids.joined(separator: ", ")))"
        }
    }
}
