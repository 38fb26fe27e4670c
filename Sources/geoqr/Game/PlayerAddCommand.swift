import ArgumentParser
import Foundation
import Play
import Ledger

/// `geoqr player add`: a player joins a hunt.
struct PlayerAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a player to a hunt, with a PIN.",
        discussion: """
        A name has 1 to 32 characters, no tabs or newlines, and is unique in the hunt ignoring \
        case. The PIN (4 characters or more; a passphrase works too) is what the player gives \
        with every claim; it is stored only as a bcrypt hash. Too many wrong PINs in a row lock \
        the player out for a while.

        Examples:
          geoqr player add Ada --hunt demo --pin 4321
          echo 4321 | geoqr player add Ada --hunt demo
        """
    )

    @Argument(help: "The player's name, as shown on the leaderboard.")
    var name: String

    @OptionGroup var gameOptions: GameOptions

    @Option(help: ArgumentHelp("The player's PIN. Without it, the first line of standard input is read.", valueName: "PIN"))
    var pin: String?

    @Option(help: "A team to play for.")
    var team: String?

    @Flag(help: "Print the player as JSON.")
    var json = false

    func run() async throws {
        let pin = try pin ?? readPIN()
        let game = try await gameOptions.game(ledgerMayBeNew: true)
        let player = try await orFail { try await game.join(name: name, pin: pin, team: team) }.value
        if json { return try printJSON(player) }
        print("\(player.name) joined \(game.hunt.id) as \(player.id)")
    }
}
