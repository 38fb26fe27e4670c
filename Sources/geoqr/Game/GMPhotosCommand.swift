import ArgumentParser
import Foundation
import Ledger
import Play

/// `geoqr gm photos`: the photos finders sent for photo tasks, for the game master to judge.
struct GMPhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "List the photos sent for photo tasks: waiting ones first, then the judged ones.",
        discussion: """
        Each line: the photo's id, its state, who sent it for which cache, and the file the \
        server kept (DATA/server/task-photos/SHA256). Judge with geoqr gm approve-photo and \
        geoqr gm reject-photo, or in the control room.

        Example:
          geoqr gm photos --hunt demo
        """
    )

    @OptionGroup var gameOptions: GameOptions

    @Flag(help: "Print the photos as a JSON array.")
    var json = false

    func run() async throws {
        let game = try await gameOptions.game()
        let photos = try await orFail { try await game.photoTasks() }
        if json { return try printJSON(photos) }
        if photos.isEmpty { return print("no photos sent in \(game.hunt.id)") }
        for photo in photos {
            let outcome = switch photo.state {
            case .pending: "waiting"
            case .approved: "approved, +\(photo.points)"
            case .rejected: "rejected: \(photo.reason ?? "")"
            }
            print("\(photo.id) \(outcome) · \(photo.player) at \(photo.cache) · task-photos/\(photo.photoSHA256)")
        }
    }
}
