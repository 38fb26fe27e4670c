import ArgumentParser
import Foundation
import Ledger

/// `geoqr trackable drop`: the holder puts a trackable into another cache, ending a trip.
struct TrackableDropCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drop",
        abstract: "Drop the trackable you carry into another cache you have found.",
        discussion: """
        Ends a trip: its distance (on the ellipsoid, from the cache you picked it up in) is \
        added to the trackable's history.

        Example:
          geoqr trackable drop K7 --into A3 --hunt demo --player Ada --pin 4321
        """
    )

    @OptionGroup var carrier: TrackableCarrier

    @Option(help: ArgumentHelp("The cache to drop it into: its id or name.", valueName: "CACHE"))
    var into: String

    func run() async throws {
        let (hunt, store, player, id) = try await carrier.signIn()
        let cache = try hunt.cacheID(named: into)
        let result = try await game {
            try await store.drop(trackable: id, into: cache, by: player.id, in: hunt, at: Date())
        }
        if carrier.json { return try printJSON(TrackableView(result)) }
        let trip = result.trips.last.flatMap(\.distance).map { String(format: " after %.0f m", $0) } ?? ""
        print("\(player.name) dropped \(result.id) \(result.name) into \(cache)\(trip)")
    }
}
