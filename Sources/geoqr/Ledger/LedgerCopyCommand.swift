import ArgumentParser
import Foundation
import Ledger

/// `geoqr ledger copy`: the ledger, event for event, into another store.
struct LedgerCopyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy the ledger to a PostgreSQL database, or back to a data directory.",
        discussion: """
        Copies every event of the ledger (the data directory's ledger.sqlite, or the one --store \
        names) to --to, exactly as it was written, with the players' PINs, so that players sign \
        in as before and `geoqr ledger verify` gives the same head hash on both. Use it to move a \
        hunt onto PostgreSQL before running several servers on it, and to bring its ledger back \
        into a data directory afterwards, to keep or to publish.

        The target must be empty, or hold an earlier copy of the same ledger: then only the \
        events it lacks are copied. A target holding any other ledger is refused, and nothing \
        is written to it. Stop the servers writing the source first: events written during the \
        copy are left for the next one.

        Examples:
          geoqr ledger copy --to postgres://geoqr:PASSWORD@db.example.org:5432/hunts
          geoqr ledger copy --store postgres://geoqr@db.example.org/hunts --to ~/archive
        """
    )

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(help: ArgumentHelp("""
        Where to copy the ledger: postgres://USER:PASSWORD@HOST:PORT/DATABASE, or a folder (its \
        ledger.sqlite) or a .sqlite file.
        """, valueName: "URL|PATH"))
    var to: String

    @Flag(help: "Print the result as JSON.")
    var json = false

    /// What the copy prints with --json.
    struct Outcome: Encodable {
        var from: String
        var to: String
        var alreadyThere: Int64
        var copied: Int
        var events: Int
        var headHash: String
    }

    func run() async throws {
        let target = try LedgerPlace(to)
        let source = try await storeOptions.ledger(data: dataOptions, mustExist: true)
        let sourcePlace = try LedgerPlace(storeOptions.named ?? dataOptions.directory().path)
        guard sourcePlace.description != target.description else {
            throw CommandFailure("--to \(target) is the ledger being copied; name another database or folder")
        }
        let destination = try await target.open(mustExist: false)
        let progress = Progress(label: "copying", total: 100)
        let report = try await orFail {
            try await LedgerCopy.copy(from: source, to: destination) { done, total in
                progress.update(total == 0 ? 100 : Int(done * 100 / total))
            }
        }
        // The copy is checked as `ledger verify` would: the chain, the derived tables, the head.
        let check = try await orFail { try await destination.verify() }
        guard check.isIntact, check.headHash == report.headHash else {
            throw CommandFailure("the copy at \(target) does not verify: \(check.problem ?? "head \(check.headHash), not \(report.headHash)")")
        }
        if json {
            try printJSON(Outcome(from: sourcePlace.description, to: target.description, alreadyThere: report.alreadyThere,
                                  copied: report.copied, events: check.events, headHash: check.headHash))
        } else {
            let earlier = report.alreadyThere > 0 ? " (it held \(report.alreadyThere) already)" : ""
            print("copied \(report.copied) events to \(target)\(earlier): \(check.events) events, head \(check.headHash)")
        }
    }
}
