import ArgumentParser
import Foundation
import Interchange
import Play

/// `geoqr results`: a hunt's results at the game master's desk, for a spreadsheet or a script.
struct ResultsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "results",
        abstract: "Print a hunt's results: the standings, the teams, every find, course splits or who is still out.",
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
          splits     courses: one row per runner and control, then the finish:
                     course, rank, player, name, team, status, control,
                     order, split and leg (seconds from the runner's start;
                     empty for a control not punched)
          still-out  runners who started a course and have not finished:
                     player, name, team, course, started, lastSeen,
                     silentMinutes, overdue, latitude, longitude
                     (the last punch's; the server's control room also
                     knows the phones' last positions)
        Text a spreadsheet would run as a formula (starting with =, +, - or @) \
        is written with a ' in front.

        --format json prints all three in one document, {hunt, standings, teams, finds}, as \
        the server's GET /api/admin/results does; with --what splits or still-out, that \
        table's document (GET /api/admin/courses, /api/admin/still-out).

        --format iof (with --what splits, or alone) prints an IOF XML 3.0 ResultList: a \
        ClassResult per course, each runner's result with start, finish, time, position, \
        status (OK, MissingPunch, DidNotFinish, OverTime, Disqualified, Active), score and a \
        SplitTime per control; in a hunt with teams, a TeamResult per team too. Results \
        services (WinSplits, Livelox) and orienteering software read it. While the hunt runs \
        the list is a Snapshot; once it has ended, Complete.

        --format text (with --what splits) prints a split table per course, each runner's \
        split at every control with the leg under it, as orienteers read them.

        Examples:
          geoqr results --hunt demo > standings.csv
          geoqr results --hunt demo --what finds > finds.csv
          geoqr results --hunt demo --format json
          geoqr results --hunt demo --what splits --format text
          geoqr results --hunt park-o --format iof > results.xml
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case csv, json, text, iof }

    enum What: String, ExpressibleByArgument, CaseIterable {
        case standings, teams, finds, splits
        case stillOut = "still-out"
    }

    @OptionGroup var gameOptions: GameOptions

    @Option(help: "csv (one table), json (everything, or the courses' table), text (split tables) or iof (IOF XML 3.0 result list).")
    var format: Format = .csv

    @Option(help: ArgumentHelp("The table: standings, teams, finds, splits or still-out (default: standings).",
                               valueName: "TABLE"))
    var what: What?

    func validate() throws {
        switch (format, what) {
        case (.json, .standings?), (.json, .teams?), (.json, .finds?):
            throw ValidationError("--what chooses a CSV table; --format json prints standings, teams and finds together: drop --what \(what?.rawValue ?? "")")
        case (.text, .splits?): break
        case (.text, _):
            throw ValidationError("--format text prints split tables: add --what splits")
        case (.iof, nil), (.iof, .splits?): break
        case (.iof, _):
            throw ValidationError("--format iof prints the courses' result list: drop --what or use --what splits")
        default: break
        }
    }

    func run() async throws {
        let game = try await gameOptions.game()
        if format == .iof {
            let board = try await orFail { try await game.courseResults() }
            guard !game.hunt.courses.isEmpty else { throw CommandFailure("hunt \(game.hunt.id) has no courses: IOF results are course results") }
            return write(IOFWriter.resultList(game.hunt, results: board.courses,
                                              runners: board.runners.mapValues { IOFRunner(name: $0.name, team: $0.team) },
                                              created: board.time, complete: board.closed))
        }
        switch what {
        case .splits?:
            let board = try await orFail { try await game.courseResults() }
            switch format {
            case .json: try printJSON(board)
            case .text: print(board.splitTables(), terminator: "")
            case .csv, .iof: write(board.splitsCSV())
            }
        case .stillOut?:
            let out = try await orFail { try await game.stillOut() }
            if format == .json { return try printJSON(out) }
            write(CourseBoard.stillOutCSV(out, now: game.clock()))
        case let table:
            let results = try await orFail { try await game.results() }
            if format == .json { return try printJSON(results) }
            write(results.csv(Results.Table(rawValue: table?.rawValue ?? "standings") ?? .standings))
        }
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }
}
