import ArgumentParser
import Ledger

/// `geoqr trade cancel`.
struct TradeCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Withdraw a trade you offered.",
        discussion: TradeReply.discussion("cancel")
    )

    @OptionGroup var reply: TradeReply

    func run() async throws {
        try await reply.perform(.cancel)
    }
}
