import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import Ledger
import Play

/// What every game command takes: the hunt it plays in and the data directory its ledger
/// lives in.
struct GameOptions: ParsableArguments {
    @Option(help: "Hunt name (demo for caches/demo.json) or hunt file.")
    var hunt: String

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var storeOptions: StoreOptions

    /// The hunt, loaded quietly: its warnings belong to `geoqr verify`, not to every claim.
    func loadedHunt() throws -> Hunt { try loadHunt(hunt, quietWarnings: true).hunt }

    /// The ledger, which must exist: players join before anything else happens.
    func ledger() async throws -> any GameStore { try await storeOptions.ledger(data: dataOptions, mustExist: true) }

    /// The hunt's game on its ledger (which must exist unless `ledgerMayBeNew`), with the
    /// hunt's secret when this data directory has one.
    func game(ledgerMayBeNew: Bool = false) async throws -> Game {
        let hunt = try loadedHunt()
        let data = try dataOptions.directory()
        let secret = try? data.existingSecret(forHunt: hunt.id)
        return Game(hunt: hunt, secret: secret, store: try await storeOptions.ledger(data: dataOptions, mustExist: !ledgerMayBeNew))
    }
}

/// The player acting, and the PIN that proves it.
struct PlayerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Your player name (or id, such as P3).", valueName: "NAME"))
    var player: String

    @Option(help: ArgumentHelp("Your PIN. Without it, the first line of standard input is read, which keeps it out of the shell's history.", valueName: "PIN"))
    var pin: String?

    /// Checks the PIN: a wrong one counts towards a lockout and ends the command.
    func signIn(_ game: Game) async throws -> Player {
        let pin = try pin ?? readPIN()
        return try await orFail { try await game.signIn(name: player, pin: pin) }.value
    }
}

/// A PIN from the first line of standard input.
func readPIN() throws -> String {
    guard let line = readLine(strippingNewline: true), !line.isEmpty else {
        throw CommandFailure("no PIN: pass --pin PIN, or give it on the first line of standard input")
    }
    return line
}

/// Runs a ledger call, turning what the game refuses (unknown player, wrong PIN…) and what
/// storage cannot do into one line on standard error and exit status 1.
func orFail<T>(_ body: () async throws -> T) async throws -> T {
    do { return try await body() } catch { throw CommandFailure.from(error) }
}
