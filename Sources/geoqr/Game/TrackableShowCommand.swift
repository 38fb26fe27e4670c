import ArgumentParser
import Foundation
import Play
import Ledger

/// `geoqr trackable show`: where a trackable is, and every trip it made.
struct TrackableShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a trackable's whereabouts, trips and total distance (or every trackable's).",
        discussion: """
        Examples:
          geoqr trackable show K7 --hunt demo
          geoqr trackable show --hunt demo --json
        """
    )

    @Argument(help: ArgumentHelp("The trackable's id (K7) or name; without it, every trackable of the hunt.", valueName: "TRACKABLE"))
    var trackable: String?

    @OptionGroup var gameOptions: GameOptions

    @Flag(help: "Print JSON: one trackable, or an array of them without TRACKABLE.")
    var json = false

    func run() async throws {
        let hunt = try gameOptions.loadedHunt()
        let store = try await gameOptions.ledger()
        let names = try await playerNames(store, hunt: hunt)
        guard let trackable else {
            let all = try await orFail { try await store.trackables(hunt: hunt.id) }
            if json { return try printJSON(all.map(TrackableView.init)) }
            if all.isEmpty { print("no trackables in \(hunt.id) yet") }
            return try all.forEach { try printTrackable($0, players: names, json: false) }
        }
        let game = Game(hunt: hunt, secret: nil, store: store)
        let found = try await orFail { try await game.trackable(named: trackable) }
        try printTrackable(found, players: names, json: json)
    }
}
