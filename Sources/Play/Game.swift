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
    /// Wrong PINs by address and wrong typed codes by player, counted before the ledger's
    /// own, slower, count per player. A server keeps one for its life; a desk command has none
    /// to keep and counts typed codes for its one run.
    public let guesses: Guesses
    /// Camera refusals recorded once a minute per player, cache and verdict.
    let repeatedRefusals = RepeatedRefusals()
    /// Every player's name, for a new one to be checked against.
    let knownNames = KnownNames()

    public init(hunt: Hunt, secret: HuntSecret?, store: any GameStore, clock: @escaping @Sendable () -> Date = { Date() },
                running: (@Sendable () async throws -> Bool)? = nil, guesses: Guesses = Guesses()) {
        self.hunt = hunt
        self.guesses = guesses
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
