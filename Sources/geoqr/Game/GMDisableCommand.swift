import ArgumentParser
import Foundation
import Play
import Ledger

/// `geoqr gm disable`.
struct GMDisableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "disable",
        abstract: "Disable a cache (or, with --enable, put it back in play).",
        discussion: """
        Claims on a disabled cache are kept as attempts (cache-disabled), not finds. Finds made \
        before stay.

        Example:
          geoqr gm disable A2 --hunt demo --reason "flooded"
        """
    )

    @Argument(help: ArgumentHelp("The cache's id or name.", valueName: "CACHE"))
    var cache: String

    @OptionGroup var gameOptions: GameOptions
    @OptionGroup var reasonOption: ReasonOption

    @Flag(help: "Enable the cache again instead.")
    var enable = false

    @Flag(help: "Print the result as JSON.")
    var json = false

    private struct Result: Encodable {
        let cache: String
        let disabled: Bool
        let reason: String
    }

    func run() async throws {
        let game = try await gameOptions.game()
        let id = try await orFail { try await game.setCacheDisabled(!enable, cache: cache, reason: reasonOption.reason) }.value
        if json { return try printJSON(Result(cache: id, disabled: !enable, reason: reasonOption.reason)) }
        print("cache \(id) is \(enable ? "enabled" : "disabled"): \(reasonOption.reason)")
    }
}
