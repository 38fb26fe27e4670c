import ArgumentParser
import Ledger

/// `geoqr ledger verify`: recompute the chain and the derived state.
struct LedgerVerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check that the ledger has not been altered.",
        discussion: """
        Recomputes the hash chain of every event and rebuilds every derived table (players, \
        finds, items, trips, points, trades, reports…) from the events, then compares them with \
        the stored ones. Names the first event where anything diverges. Exit status 0 when the \
        ledger is intact, 1 otherwise.
        """
    )

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() async throws {
        let store = try await storeOptions.ledger(data: dataOptions, mustExist: true)
        let report: LedgerVerification
        do { report = try await store.verify() } catch { throw fail("\(error)") }
        if json {
            try printJSON(report)
        } else if let seq = report.firstBadSeq {
            print("ledger damaged at event \(seq): \(report.problem ?? "")")
        } else {
            print("ledger intact: \(report.events) events, head \(report.headHash)")
        }
        if !report.isIntact { throw ExitCode.failure }
    }
}
