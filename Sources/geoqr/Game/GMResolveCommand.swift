import ArgumentParser
import Foundation
import Play
import Ledger

/// `geoqr gm resolve`.
struct GMResolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Close a maintenance report; the cache's flag goes.",
        discussion: """
        REPORT is the id geoqr report printed (R9).

        Example:
          geoqr gm resolve R9 --hunt demo --resolution "new code printed and placed"
        """
    )

    @Argument(help: ArgumentHelp("The report's id.", valueName: "REPORT"))
    var report: String

    @OptionGroup var gameOptions: GameOptions

    @Option(help: "What was done about it.")
    var resolution: String = "resolved"

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        let game = try await gameOptions.game()
        let resolved = try await orFail { try await game.resolveReport(report, resolution: resolution) }.value
        if json { return try printJSON(resolved) }
        print("report \(resolved.id) on \(resolved.cache) resolved: \(resolved.resolution ?? resolution)")
    }
}
