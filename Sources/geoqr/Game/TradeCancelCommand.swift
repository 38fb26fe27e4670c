import ArgumentParser
import Foundation
import GeoQR
import Ledger

/// `geoqr trade cancel`.
struct TradeCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Withdraw a trade you offered.",
        discussion: """
        TRADE is the id geoqr trade offer printed (T7).

        Example:
          geoqr trade cancel T7 --hunt demo --player Bob --pin 1234
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
            try await store.cancelTrade(hunt: hunt.id, id: trade.uppercased(), by: player.id, at: Date())
        }
        try printTrade(result, json: json)
    }
}
