import ArgumentParser
import Foundation
import GeoQR
import Ledger

/// `geoqr trade decline`.
struct TradeDeclineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decline",
        abstract: "Decline a trade offered to you.",
        discussion: """
        TRADE is the id geoqr trade offer printed (T7).

        Example:
          geoqr trade decline T7 --hunt demo --player Bob --pin 1234
        """
    )

    @Argument(help: ArgumentHelp("The trade's id.", valueName: "TRADE"))
    var trade: String

    @OptionGroup var gameOptions: GameOptions

    @OptionGroup var playerOptions: PlayerOptions

    @Flag(help: "Print the trade as JSON.")
    var json = false

    func run() async throws {
        let hunt = try gameOptions.loadedHunt()
        let store = try gameOptions.ledger()
        let player = try await playerOptions.signIn(store, hunt: hunt)
        let result = try await game {
            try await store.declineTrade(hunt: hunt.id, id: trade.uppercased(), by: player.id, at: Date())
        }
        try printTrade(result, json: json)
    }
}
