import ArgumentParser
import Foundation
import Play
import Ledger

/// `geoqr trackable pick-up`: a finder takes a trackable out of a cache.
struct TrackablePickUpCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pick-up",
        abstract: "Take a trackable out of a cache you have found, and carry it.",
        discussion: """
        The trackable must sit in the cache, and you must have found that cache (claim it \
        first). It is then yours to carry until you drop it into another cache you find.

        Example:
          geoqr trackable pick-up K7 --hunt demo --player Ada --pin 4321
        """
    )

    @OptionGroup var carrier: TrackableCarrier

    @Option(help: ArgumentHelp("The cache it sits in (default: wherever it is).", valueName: "CACHE"))
    var from: String?

    func run() async throws {
        let (game, player) = try await carrier.signIn()
        let before = try await orFail { try await game.trackables() }
        let result = try await orFail { try await game.pickUp(carrier.trackable, from: from, by: player.id) }.value
        let cache = before.first { $0.id == result.id }?.cache ?? from ?? "?"
        if carrier.json { return try printJSON(TrackableView(result)) }
        print("\(player.name) picked up \(result.id) \(result.name) from \(cache)")
    }
}
