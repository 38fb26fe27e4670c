import ArgumentParser
import Foundation
import Play
import Ledger

/// `geoqr trackable seed`: the game master puts a new trackable into a cache.
struct TrackableSeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Put a new trackable into a cache (game master).",
        discussion: """
        Prints the trackable's id (K7), which players use to pick it up.

        Example:
          geoqr trackable seed "Rubber duck" --into A2 --hunt demo
        """
    )

    @Argument(help: ArgumentHelp("What the trackable is called (1 to 64 characters).", valueName: "NAME"))
    var name: String

    @Option(help: ArgumentHelp("The cache to put it into: its id or name.", valueName: "CACHE"))
    var into: String

    @OptionGroup var gameOptions: GameOptions

    @Flag(help: "Print the trackable as JSON.")
    var json = false

    func validate() throws {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...64).contains(trimmed.count), !trimmed.contains(where: \.isNewline) else {
            throw ValidationError("NAME: give 1 to 64 characters on one line")
        }
    }

    func run() async throws {
        let game = try await gameOptions.game(ledgerMayBeNew: true)
        let trackable = try await orFail {
            try await game.seedTrackable(named: name.trimmingCharacters(in: .whitespacesAndNewlines), into: into)
        }.value
        if json { return try printJSON(TrackableView(trackable)) }
        print("\(trackable.id) \(trackable.name) is in \(trackable.cache ?? into)")
    }
}
