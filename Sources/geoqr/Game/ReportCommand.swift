import ArgumentParser
import Foundation
import Play
import GeoQR
import Ledger

/// `geoqr report`: a player says a cache needs maintenance.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Tell the game master a cache needs maintenance.",
        discussion: """
        Kinds: missing, damaged, unreadable, wrong-coordinates. The cache shows the flag until \
        the game master resolves the report (geoqr gm resolve REPORT).

        Example:
          geoqr report A2 --hunt demo --player Ada --pin 4321 --kind unreadable "The QR is faded"
        """
    )

    @Argument(help: ArgumentHelp("The cache's id or name.", valueName: "CACHE"))
    var cache: String

    @Argument(help: "What is wrong, in a sentence or two.")
    var text: String

    @Option(help: "missing, damaged, unreadable or wrong-coordinates.")
    var kind: ReportKind

    @OptionGroup var gameOptions: GameOptions

    @OptionGroup var playerOptions: PlayerOptions

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() async throws {
        let game = try await gameOptions.game()
        let player = try await playerOptions.signIn(game)
        let report = try await orFail { try await game.fileReport(on: cache, kind: kind, text: text, photo: nil, by: player.id) }.value
        if json { return try printJSON(report) }
        print("report \(report.id) filed: \(report.cache) \(report.kind.rawValue): \(report.text)")
    }
}

extension ReportKind: ExpressibleByArgument {}
