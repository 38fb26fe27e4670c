import ArgumentParser
import Foundation
import Ledger

/// `geoqr gm adjust`.
struct GMAdjustCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "adjust",
        abstract: "Give a player points, or take some away.",
        discussion: """
        A negative number would read as an option, so put it after --, with the options \
        before:

        Examples:
          geoqr gm adjust Ada 5 --hunt demo --reason "found the lost trackable"
          geoqr gm adjust --hunt demo --reason "moved a cache" Ada -- -10
        """
    )

    @Argument(help: ArgumentHelp("The player's name or id.", valueName: "PLAYER"))
    var player: String

    @Argument(help: ArgumentHelp("Points to add; negative to take away.", valueName: "POINTS"))
    var points: Int

    @OptionGroup var gameOptions: GameOptions
    @OptionGroup var reasonOption: ReasonOption

    @Flag(help: "Print the player's standing afterwards as JSON.")
    var json = false

    func validate() throws {
        guard points != 0 else { throw ValidationError("POINTS: give a number other than 0") }
    }

    func run() async throws {
        let hunt = try gameOptions.loadedHunt()
        let store = try gameOptions.ledger()
        let standing = try await game {
            try await store.adjustPoints(hunt: hunt.id, player: player, amount: points, reason: reasonOption.reason,
                                         by: gameMasterActor, at: Date())
            let id = try await store.player(hunt: hunt.id, named: player)?.id
            return try await store.leaderboard(hunt: hunt.id).first { $0.player == id }
        }
        if json { return try printJSON(standing) }
        print("\(standing?.name ?? player): \(points > 0 ? "+" : "")\(points) points, now \(standing?.points ?? 0)")
    }
}
