import ArgumentParser
import Ledger

/// `geoqr trade decline`.
struct TradeDeclineCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decline",
        abstract: "Decline a trade offered to you.",
        discussion: TradeReply.discussion("decline")
    )

    @OptionGroup var reply: TradeReply

    func run() async throws {
        try await reply.perform(.decline)
    }
}
