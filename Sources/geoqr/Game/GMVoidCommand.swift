import ArgumentParser
import Foundation
import Play
import Ledger

/// `geoqr gm void`.
struct GMVoidCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "void",
        abstract: "Void a find: its points go, and its card if the finder still holds it.",
        discussion: """
        FIND is the find's id (F12), as geoqr claim and geoqr ledger show print it.

        Example:
          geoqr gm void F12 --hunt demo --reason "same photo as Bob's"
        """
    )

    @Argument(help: ArgumentHelp("The find's id.", valueName: "FIND"))
    var find: String

    @OptionGroup var gameOptions: GameOptions
    @OptionGroup var reasonOption: ReasonOption

    @Flag(help: "Print the voided find as JSON.")
    var json = false

    func run() async throws {
        let game = try await gameOptions.game()
        let voided = try await orFail { try await game.voidFind(find, reason: reasonOption.reason) }.value
        if json { return try printJSON(voided) }
        print("find \(voided.id) of \(voided.player) at \(voided.cache) is void: \(voided.voidReason ?? reasonOption.reason)")
    }
}
