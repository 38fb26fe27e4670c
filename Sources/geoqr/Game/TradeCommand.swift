import ArgumentParser
import Foundation
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
