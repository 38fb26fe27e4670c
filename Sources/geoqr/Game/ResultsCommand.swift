import ArgumentParser
import Foundation
import Play

/// `geoqr results`: a hunt's results at the game master's desk, for a spreadsheet or a script.
struct ResultsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "results",
        abstract: "Print a hunt's results: the standings, the teams, or every find, as CSV or JSON.",
        discussion: """
        For the end of the day: open the CSV in a spreadsheet, print it, or keep it with the \
        published ledger. The hunt server gives the game master the same files \
        (/api/admin/results/standings.csv, teams.csv, finds.csv).

        --format csv (the default) prints one table, chosen by --what, with a header row \
        (RFC 4180: quoted where needed, CRLF line ends):
          standings  (the default) rank, player, name, team, points, finds;
                     players equal in points and finds share a rank
          teams      team, points, finds, players: sums of each team's players
          finds      every find, oldest first: id, time (ISO 8601, UTC),
                     player, playerName, team, cache, cacheName, method,
                     points, firstToFind, voided, voidReason; a voided find
                     stays listed, worth 0 points, with your reason
        Text a spreadsheet would run as a formula (starting with =, +, - or @) \
        is written with a ' in front.

        --format json prints all three in one document, {hunt, standings, teams, finds}, as \
        the server's GET /api/admin/results does.

        Examples:
          geoqr results --hunt demo > standings.csv
          geoqr results --hunt demo --what finds > finds.csv
          geoqr results --hunt demo --format json
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case csv, json }

    @OptionGroup var gameOptions: GameOptions

    @Option(help: "csv (one table) or json (everything).")
    var format: Format = .csv

    @Option(help: ArgumentHelp("The table to print as CSV: standings, teams or finds (default: standings).", valueName: "TABLE"))
    var what: Results.Table?

    func validate() throws {
        if format == .json, what != nil {
            throw ValidationError("--what chooses a CSV table; --format json prints them all: drop --what")
        }
    }

    func run() async throws {
        let game = try await gameOptions.game()
        let results = try await orFail { try await game.results() }
        switch format {
        case .json: try printJSON(results)
        case .csv: FileHandle.standardOutput.write(Data(results.csv(what ?? .standings).utf8))
        }
    }
}

extension Results.Table: ExpressibleByArgument {}
