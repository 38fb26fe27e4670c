import ArgumentParser
import Ledger

/// `geoqr trade accept`.
struct TradeAcceptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Accept a trade offered to you: every item moves at once, or none.",
        discussion: TradeReply.discussion("accept")
    )

    @OptionGroup var reply: TradeReply

    func run() async throws {
        try await reply.perform(.accept)
    }
}
