import ArgumentParser
import Foundation
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

        With FILE (a `geoqr ledger export`, published or --private, JSON lines or --json; - for \
        standard input), checks that file alone, as anyone who holds only it can: every seq, \
        every link, and every hash it lets one recompute, private parts' commitments included. \
        Withheld events are counted: PIN events by their content hash, events of the format \
        before private parts by their place in the chain only.
        """
    )

    @Argument(help: ArgumentHelp("An export file to check instead of the ledger.", valueName: "FILE"))
    var file: String?

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() async throws {
        if let file { return try verifyExport(file) }
        let store = try await storeOptions.ledger(data: dataOptions, mustExist: true)
        let report: LedgerVerification
        do { report = try await store.verify() } catch { throw CommandFailure("\(error)") }
        if json {
            try printJSON(report)
        } else if let seq = report.firstBadSeq {
            print("ledger damaged at event \(seq): \(report.problem ?? "")")
        } else {
            print("ledger intact: \(report.events) events, head \(report.headHash)")
        }
        if !report.isIntact { throw ExitCode.failure }
    }

    private func verifyExport(_ path: String) throws {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let read = FileManager.default.contents(atPath: path) else { throw CommandFailure("\(path): cannot read the file") }
            data = read
        }
        let report: ExportVerification
        do { report = try LedgerExportVerifier.verify(file: data) } catch { throw CommandFailure("\(path): \(error)") }
        if json {
            try printJSON(report)
        } else if let seq = report.firstBadSeq {
            print("export damaged at event \(seq): \(report.problem ?? "")")
        } else {
            print("export intact: \(report.events) events, head \(report.headHash) (\(report.recomputed) hashes recomputed, "
                  + "\(report.privateParts) private parts checked, \(report.withheld) withheld by content hash, "
                  + "\(report.linkedOnly) linked only)")
        }
        if !report.isIntact { throw ExitCode.failure }
    }
}
