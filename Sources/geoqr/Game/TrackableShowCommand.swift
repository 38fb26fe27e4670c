import ArgumentParser
import Foundation
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
        let store = try gameOptions.ledger()
        let names = try await playerNames(store, hunt: hunt)
        guard let trackable else {
            let all = try await game { try await store.trackables(hunt: hunt.id) }
            if json { return try printJSON(all.map(TrackableView.init)) }
            if all.isEmpty { print("no trackables in \(hunt.id) yet") }
            return try all.forEach { try printTrackable($0, players: names, json: false) }
        }
        let id = try await trackableID(trackable, store: store, hunt: hunt)
        guard let found = try await game({ try await store.trackable(hunt: hunt.id, id: id) }) else {
            throw fail("no trackable \(trackable) in hunt \(hunt.id)")
        }
        try printTrackable(found, players: names, json: json)
    }
}
