import ArgumentParser
import Ledger

/// `geoqr leaderboard`: who leads a hunt.
struct LeaderboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "leaderboard",
        abstract: "Rank a hunt's players by points, then by finds.",
        discussion: """
        Points are each find's cache points, a first-to-find bonus, trail bonuses, and the game \
        master's adjustments; a voided find loses its points.

        Example:
          geoqr leaderboard --hunt demo --json
        """
    )

    @OptionGroup var gameOptions: GameOptions

    @Flag(help: "Print the standings as a JSON array.")
    var json = false

    func run() async throws {
        let hunt = try gameOptions.loadedHunt()
        let store = try gameOptions.ledger()
        let standings = try await orFail { try await store.leaderboard(hunt: hunt.id) }
        if json { return try printJSON(standings) }
        if standings.isEmpty { print("no players in \(hunt.id) yet") }
        for (rank, s) in standings.enumerated() {
            print("\(rank + 1). \(s.name) (\(s.player)): \(s.points) points, \(s.finds) finds")
        }
    }
}
