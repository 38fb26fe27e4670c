import ArgumentParser
import Foundation
import HuntFiles
import Ledger
import Play

/// `geoqr gm drop-positions`: once a hunt is over and its retention has passed, where players
/// stood goes from the ledger.
struct GMDropPositionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drop-positions",
        abstract: "Delete every position players claimed from, once the hunt is over and its retention has passed.",
        discussion: """
        A hunt keeps where players stood when they claimed (for the control room's map and \
        for settling disputes) until positionRetentionHours after it ends (the hunt file \
        says how many, 72 unless set); the hunt ends when you stop it or when its end \
        passes. After that, this deletes every position from the ledger's tables and events: \
        each claim keeps only a commitment to its position, so the ledger still verifies, and \
        finds, points and standings do not change. The ledger records that it was done and how \
        many claims lost their position.

        geoqr serve does it by itself (when it starts and every ten minutes). Before the time \
        it refuses and says when it will be allowed. Running it again deletes nothing more and \
        records nothing.

        Examples:
          geoqr gm drop-positions --hunt demo
          geoqr gm drop-positions --hunt demo --json
        """
    )

    @OptionGroup var gameOptions: GameOptions

    @Flag(help: "Print what was dropped as JSON.")
    var json = false

    private struct Result: Encodable {
        let hunt: String
        /// Claims whose position was deleted now (0 when none was left).
        let claims: Int
        /// When the hunt ended (ISO 8601), or nil while it runs.
        let endedAt: String?
        let retentionHours: Double
    }

    func run() async throws {
        let game = try await gameOptions.game()
        let dropped = try await orFail { try await game.dropPositions() }.value
        let retention = try await orFail { try await game.positionRetention() }
        if json {
            return try printJSON(Result(hunt: game.hunt.id, claims: dropped?.claims ?? 0, endedAt: retention.endedAt.map { ISO8601DateFormatter().string(from: $0) },
                                        retentionHours: retention.retentionHours))
        }
        guard let dropped else { return print("hunt \(game.hunt.id) keeps no position any more: nothing to delete") }
        print("hunt \(game.hunt.id): deleted the positions of \(dropped.claims) claims; the ledger still verifies")
    }
}
