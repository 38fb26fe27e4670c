import ArgumentParser
import Foundation
import Play
import GeoQR
import Ledger

/// `geoqr trade offer`.
struct TradeOfferCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "offer",
        abstract: "Offer your items for another player's items.",
        discussion: """
        Items are the ids geoqr collection prints (C12 for a card). Give without --receive to \
        make a gift.

        Example:
          geoqr trade offer --hunt demo --player Ada --pin 4321 --to Bob --give C12 --receive C15
        """
    )

    @OptionGroup var gameOptions: GameOptions

    @OptionGroup var playerOptions: PlayerOptions

    @Option(help: ArgumentHelp("The player the offer is for.", valueName: "NAME"))
    var to: String

    @Option(help: ArgumentHelp("An item of yours to give; repeat for more.", valueName: "ITEM"))
    var give: [String] = []

    @Option(help: ArgumentHelp("An item of theirs you want; repeat for more.", valueName: "ITEM"))
    var receive: [String] = []

    @Option(help: "How long the offer stays open, in minutes.")
    var minutes: Double = TradeOffer.defaultLifetime / 60

    @Flag(help: "Print the trade as JSON.")
    var json = false

    func validate() throws {
        guard !give.isEmpty || !receive.isEmpty else { throw ValidationError("name items with --give and --receive") }
        guard minutes.isFinite, minutes > 0 else { throw ValidationError("--minutes: give a positive number of minutes") }
    }

    func run() async throws {
        let game = try await gameOptions.game()
        let player = try await playerOptions.signIn(game)
        let trade = try await orFail {
            try await game.offerTrade(from: player.id, to: to, give: give, receive: receive, minutes: minutes)
        }.value
        try printTrade(trade, json: json)
    }
}
