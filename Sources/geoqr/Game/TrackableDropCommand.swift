import ArgumentParser
import Foundation
import Play
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
        let (game, player) = try await carrier.signIn()
        let result = try await orFail { try await game.drop(carrier.trackable, into: into, by: player.id) }.value
        let cache = result.cache ?? into
        if carrier.json { return try printJSON(TrackableView(result)) }
        let trip = result.trips.last.flatMap(\.distance).map { String(format: " after %.0f m", $0) } ?? ""
        print("\(player.name) dropped \(result.id) \(result.name) into \(cache)\(trip)")
    }
}
