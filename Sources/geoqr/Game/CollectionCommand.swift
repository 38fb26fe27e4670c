import ArgumentParser
import Foundation
import Ledger

/// `geoqr collection`: the cards a player holds.
struct CollectionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "collection",
        abstract: "List a player's cards: each cache's message and where it was found.",
        discussion: """
        Newest first. A find grants the cache's card; cards can change hands in trades, so a \
        collection may hold cards of caches the player never found, and lose some.

        Example:
          geoqr collection Ada --hunt demo
        """
    )

    @Argument(help: ArgumentHelp("The player's name or id.", valueName: "NAME"))
    var player: String

    @OptionGroup var gameOptions: GameOptions

    @Flag(help: "Print the cards as a JSON array.")
    var json = false

    func run() async throws {
        let hunt = try gameOptions.loadedHunt()
        let store = try await gameOptions.ledger()
        let cards = try await orFail { try await store.collection(hunt: hunt.id, player: player) }
        if json { return try printJSON(cards) }
        if cards.isEmpty { print("\(player) holds no cards yet") }
        let time = ISO8601DateFormatter()
        for card in cards {
            let place = card.foundLatitude.flatMap { lat in card.foundLongitude.map { String(format: " at %.5f,%.5f", lat, $0) } } ?? ""
            print("\(card.id)  \(card.cache) \(card.cacheName): \(card.message)  (found \(time.string(from: card.foundAt))\(place))")
        }
    }
}
