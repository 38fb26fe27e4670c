import ArgumentParser
import Foundation
import Play

/// `geoqr gm reset-pin`: a player who forgot their PIN, or locked themself out, gets a new one.
struct GMResetPINCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset-pin",
        abstract: "Give a player a new PIN (and lift a lockout).",
        discussion: """
        For a player who forgot their PIN or locked themself out with wrong ones. The new PIN \
        replaces the old one at once and any lockout ends; the ledger records that the game \
        master reset it, never the PIN or its hash. Tell the player the new PIN in person.

        The PIN comes from --pin or the first line of standard input (which keeps it out of \
        the shell's history).

        Examples:
          geoqr gm reset-pin Ada --hunt demo --pin 2468
          echo 2468 | geoqr gm reset-pin Ada --hunt demo --json
        """
    )

    @Argument(help: ArgumentHelp("The player's name or id.", valueName: "PLAYER"))
    var player: String

    @OptionGroup var gameOptions: GameOptions

    @Option(help: ArgumentHelp("The new PIN. Without it, the first line of standard input is read.", valueName: "PIN"))
    var pin: String?

    @Flag(help: "Print the player as JSON.")
    var json = false

    func run() async throws {
        let pin = try pin ?? readPIN()
        let game = try await gameOptions.game()
        let reset = try await orFail { try await game.resetPIN(of: player, to: pin) }.value
        if json { return try printJSON(reset) }
        print("\(reset.name) (\(reset.id)) has a new PIN; any lockout is lifted")
    }
}
