import ArgumentParser
import Ledger
import Play

/// `geoqr leaderboard`: who leads a hunt.
struct LeaderboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaderboard",
        abstract: "Rank a hunt's players by points, then by finds.",
        discussion: """
        Points are each find's cache points, a first-to-find bonus, trail bonuses, and the game \
        master's adjustments, less any hints paid for; a voided find loses its points. Teams \
        are ranked by the sums of their players' points.

        Example:
          geoqr leaderboard --hunt demo --json
        """
    )

    @OptionGroup var gameOptions: GameOptions

    @Flag(help: "Print the standings as a JSON array.")
    var json = false

    func run() async throws {
        let hunt = try gameOptions.loadedHunt()
        let store = try await gameOptions.ledger()
        let standings = try await orFail { try await store.leaderboard(hunt: hunt.id) }
        if json { return try printJSON(standings) }
        if standings.isEmpty { print("no players in \(hunt.id) yet") }
        for (s, rank) in zip(standings, Results.ranks(standings)) {
            let team = s.team.map { ", \($0)" } ?? ""
            print("\(rank). \(s.name) (\(s.player)\(team)): \(s.points) points, \(s.finds) finds")
        }
        let teams = TeamStanding.rank(standings)
        if !teams.isEmpty { print("teams:") }
        for t in teams {
            print("\(t.rank). \(t.team): \(t.points) points, \(t.finds) finds, \(t.players) players")
        }
    }
}
