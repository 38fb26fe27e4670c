import ArgumentParser
import Foundation
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
        let (hunt, store, player, id) = try await carrier.signIn()
        let current = try await game { try await store.trackable(hunt: hunt.id, id: id) }
        guard let cache = try from.map(hunt.cacheID(named:)) ?? current?.cache else {
            throw fail("\(id) is not in a cache: \(current?.holder.map { "\($0) carries it" } ?? "it is nowhere")")
        }
        let result = try await game {
            try await store.pickUp(trackable: id, from: cache, by: player.id, in: hunt, at: Date())
        }
        if carrier.json { return try printJSON(TrackableView(result)) }
        print("\(player.name) picked up \(result.id) \(result.name) from \(cache)")
    }
}
