import ArgumentParser
import Foundation
import Play

/// `geoqr gm approve-photo`.
struct GMApprovePhotoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve-photo",
        abstract: "Approve a photo sent for a photo task: its finder wins the task's points (once per cache).",
        discussion: """
        PHOTO is the id geoqr gm photos printed (S14).

        Example:
          geoqr gm approve-photo S14 --hunt demo
        """
    )

    @Argument(help: ArgumentHelp("The photo's id.", valueName: "PHOTO"))
    var photo: String

    @OptionGroup var gameOptions: GameOptions

    @Flag(help: "Print the judged photo as JSON.")
    var json = false

    func run() async throws {
        let game = try await gameOptions.game()
        let judged = try await orFail { try await game.judgePhoto(photo, approve: true, reason: "") }.value
        if json { return try printJSON(judged) }
        print("photo \(judged.id) by \(judged.player) at \(judged.cache) approved: +\(judged.points)")
    }
}
