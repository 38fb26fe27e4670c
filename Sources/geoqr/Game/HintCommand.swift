import ArgumentParser
import Foundation
import Play

/// `geoqr hint`: a player asks for a cache's hint.
struct HintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hint",
        abstract: "Show a cache's hint; in a hunt whose hints cost points, pay for it once.",
        discussion: """
        A hunt file's "hintCost" (0 unless set) is what a hint costs: it is taken off the \
        player's points the first time they ask for that cache's hint, and recorded in the \
        ledger. Asking again shows the hint without charging. Free hints cost nothing and \
        record nothing.

        Example:
          geoqr hint A2 --hunt demo --player Ada --pin 4321
        """
    )

    @Argument(help: ArgumentHelp("The cache's id or name.", valueName: "CACHE"))
    var cache: String

    @OptionGroup var gameOptions: GameOptions

    @OptionGroup var playerOptions: PlayerOptions

    @Flag(help: "Print the hint as JSON.")
    var json = false

    func run() async throws {
        let game = try await gameOptions.game()
        let player = try await playerOptions.signIn(game)
        let hint = try await orFail { try await game.revealHint(cache: cache, by: player.id) }.value
        if json { return try printJSON(hint) }
        let price = hint.charged ? " (-\(hint.cost) points)" : hint.cost > 0 ? " (paid before)" : ""
        print("\(hint.cache): \(hint.hint)\(price)")
    }
}
