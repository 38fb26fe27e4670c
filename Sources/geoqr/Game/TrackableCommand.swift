import ArgumentParser
import Foundation
import Play
import GeoQR
import Ledger

/// `geoqr trackable`: items that travel from cache to cache in players' pockets.
struct TrackableCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trackable",
        abstract: "Seed, pick up, drop and follow trackables (travel bugs).",
        discussion: """
        The game master seeds a trackable into a cache. A player who has found that cache \
        picks it up and carries it (one holder at a time), then drops it into another cache \
        they have found. Each leg is a trip; show lists them with the distance covered.

        Examples:
          geoqr trackable seed "Rubber duck" --into A2 --hunt demo
          geoqr trackable pick-up K7 --hunt demo --player Ada --pin 4321
          geoqr trackable drop "Rubber duck" --into A3 --hunt demo --player Ada --pin 4321
          geoqr trackable show K7 --hunt demo
        """,
        subcommands: [TrackableSeedCommand.self, TrackablePickUpCommand.self, TrackableDropCommand.self,
                      TrackableShowCommand.self]
    )
}

/// A trackable as the commands print it: with the distance of all its finished trips.
struct TrackableView: Encodable {
    let id: String
    let name: String
    let holder: String?
    let cache: String?
    let trips: [Trip]
    let totalDistance: Double

    init(_ t: Trackable) {
        id = t.id; name = t.name; holder = t.holder; cache = t.cache; trips = t.trips
        totalDistance = t.totalDistance
    }
}

/// One trackable in a few lines: where it is, then its trips.
func printTrackable(_ t: Trackable, players: [String: String], json: Bool) throws {
    if json { return try printJSON(TrackableView(t)) }
    let name = { (id: String) in players[id].map { "\($0) (\(id))" } ?? id }
    let whereabouts = t.cache.map { "in \($0)" } ?? t.holder.map { "carried by \(name($0))" } ?? "nowhere"
    let trips = t.trips.count == 1 ? "1 trip" : "\(t.trips.count) trips"
    print("\(t.id) \(t.name): \(whereabouts); \(trips), \(distanceText(t.totalDistance))")
    let time = ISO8601DateFormatter()
    for trip in t.trips {
        let leg = trip.to.map { "\(trip.from) → \($0), \(distanceText(trip.distance ?? 0))" } ?? "\(trip.from) → under way"
        let dropped = trip.dropped.map { ", dropped \(time.string(from: $0))" } ?? ""
        print("  \(trip.leg). \(name(trip.player)): \(leg) (picked up \(time.string(from: trip.pickedUp))\(dropped))")
    }
}

private func distanceText(_ metres: Double) -> String {
    metres < 1000 ? "\(Int(metres.rounded())) m" : String(format: "%.2f km", metres / 1000)
}

/// Player ids to names, for printing.
func playerNames(_ store: any GameStore, hunt: Hunt) async throws -> [String: String] {
    let players = try await orFail { try await store.players(hunt: hunt.id) }
    return Dictionary(players.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
}

/// What picking up and dropping share: the trackable, the player carrying it (signed in with
/// their PIN), and how the result is printed.
struct TrackableCarrier: ParsableArguments {
    @Argument(help: ArgumentHelp("The trackable's id (K7) or name.", valueName: "TRACKABLE"))
    var trackable: String

    @OptionGroup var gameOptions: GameOptions
    @OptionGroup var playerOptions: PlayerOptions

    @Flag(help: "Print the trackable as JSON.")
    var json = false

    /// The hunt's game and the signed-in player.
    func signIn() async throws -> (game: Game, player: Player) {
        let game = try await gameOptions.game()
        return (game, try await playerOptions.signIn(game))
    }
}
