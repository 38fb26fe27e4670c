import ArgumentParser
import Foundation
import HuntFiles
import Ledger
import Play

/// `geoqr gm forget-player`: a player who asks is forgotten.
struct GMForgetPlayerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget-player",
        abstract: "Forget a player who asks: their name, positions, reports' words and photos, PIN and sessions.",
        discussion: """
        For a player who asks to have their personal data removed. Their name is replaced \
        everywhere it shows (standings, the board, exports) by a pseudonym such as "Forgotten \
        player 1"; where they stood when they claimed, the words and photos of their reports \
        and your answers to them are deleted from the ledger and the data directory, which \
        keeps only commitments to them, so the ledger still verifies. Their PIN and sessions \
        are deleted: nobody can sign in as them again. Their finds and points stay, so the \
        standings stay right. The ledger records that a player was forgotten, and nothing \
        personal about it.

        Forgetting a player twice does nothing the second time. Name them by name or by id \
        (P3): once forgotten, only the id names them.

        Examples:
          geoqr gm forget-player Ada --hunt demo
          geoqr gm forget-player P3 --hunt demo --json
        """
    )

    @Argument(help: ArgumentHelp("The player's name or id.", valueName: "PLAYER"))
    var player: String

    @OptionGroup var gameOptions: GameOptions

    @Flag(help: "Print what was done as JSON.")
    var json = false

    func run() async throws {
        let game = try await gameOptions.game()
        let data = try gameOptions.dataOptions.directory()
        let forgotten = try await orFail { try await game.forgetPlayer(player, photoFolders: [data.reportPhotoFolder, data.taskPhotoFolder]) }.value
        if json { return try printJSON(forgotten) }
        if forgotten.alreadyForgotten {
            return print("\(forgotten.player) was forgotten before (shown as \(forgotten.pseudonym)): nothing more to do")
        }
        print("\(forgotten.player) is forgotten: shown as \(forgotten.pseudonym) from now on; "
              + "\(forgotten.events) events keep only commitments, \(forgotten.photos.count) report photos deleted")
    }
}
