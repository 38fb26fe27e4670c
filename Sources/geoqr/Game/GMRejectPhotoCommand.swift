import ArgumentParser
import Foundation
import Play

/// `geoqr gm reject-photo`.
struct GMRejectPhotoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reject-photo",
        abstract: "Reject a photo sent for a photo task, saying why: the player reads the reason and may send another.",
        discussion: """
        PHOTO is the id geoqr gm photos printed (S14).

        Example:
          geoqr gm reject-photo S14 --hunt demo --reason "the statue is not in the picture"
        """
    )

    @Argument(help: ArgumentHelp("The photo's id.", valueName: "PHOTO"))
    var photo: String

    @OptionGroup var gameOptions: GameOptions
    @OptionGroup var reason: ReasonOption

    @Flag(help: "Print the judged photo as JSON.")
    var json = false

    func run() async throws {
        let game = try await gameOptions.game()
        let judged = try await orFail { try await game.judgePhoto(photo, approve: false, reason: reason.reason) }.value
        if json { return try printJSON(judged) }
        print("photo \(judged.id) by \(judged.player) at \(judged.cache) rejected: \(judged.reason ?? reason.reason)")
    }
}
