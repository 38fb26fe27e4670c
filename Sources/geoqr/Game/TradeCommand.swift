import ArgumentParser
import Foundation
import Play
import GeoQR
import Ledger

/// `geoqr trade`: players swap cards and trackables.
struct TradeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trade",
        abstract: "Offer, accept, decline or cancel trades of cards and trackables.",
        discussion: """
        One player offers items for another's items (or gives them, asking nothing back). The \
        other accepts or declines; the offerer may cancel; an offer expires after 15 minutes \
        unless --minutes says otherwise. Accepting moves every item at once, or nothing, with \
        the reason (an item changed hands, a duplicate card, expired). Finds never move.
        """,
        subcommands: [TradeOfferCommand.self, TradeAcceptCommand.self, TradeDeclineCommand.self, TradeCancelCommand.self]
    )
}

/// How a trade is printed after any of its acts.
func printTrade(_ trade: TradeOffer, json: Bool) throws {
    if json { return try printJSON(trade) }
    let give = trade.give.isEmpty ? "nothing" : trade.give.joined(separator: ", ")
    let receive = trade.receive.isEmpty ? "nothing" : trade.receive.joined(separator: ", ")
    print("trade \(trade.id): \(trade.from) gives \(give) to \(trade.to) for \(receive): \(trade.state.rawValue)")
}

/// What accepting, declining and cancelling a trade share: the trade, the player who acts
/// (signed in with their PIN), and how the result is printed.
struct TradeReply: ParsableArguments {
    @Argument(help: ArgumentHelp("The trade's id.", valueName: "TRADE"))
    var trade: String

    @OptionGroup var gameOptions: GameOptions

    @OptionGroup var playerOptions: PlayerOptions

    @Flag(help: "Print the trade as JSON.")
    var json = false

    static func discussion(_ act: String) -> String {
        """
        TRADE is the id geoqr trade offer printed (T7).

        Example:
          geoqr trade \(act) T7 --hunt demo --player Bob --pin 1234
        """
    }

    /// Signs the player in, gives their answer to the trade and prints the trade.
    func perform(_ answer: Game.TradeAnswer) async throws {
        let game = try await gameOptions.game()
        let player = try await playerOptions.signIn(game)
        let result = try await orFail { try await game.answerTrade(trade, answer, by: player.id) }.value
        try printTrade(result, json: json)
    }
}
