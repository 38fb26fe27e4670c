import ArgumentParser
import Foundation
import HuntFiles
import Ledger

/// `geoqr ledger`: the record of the game, checked and exported.
struct LedgerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "Check, show and export the game's ledger of finds, items and trades.",
        discussion: """
        The ledger is one SQLite file in the data directory (ledger.sqlite). Its events are \
        append-only and hash-chained; every other table is derived from them.
        """,
        subcommands: [LedgerVerifyCommand.self, LedgerExportCommand.self, LedgerShowCommand.self,
                      LedgerBenchCommand.self, LedgerLoadCommand.self]
    )
}

extension DataOptions {
    /// The ledger in the data directory; with `mustExist`, a missing one is an error rather
    /// than a new empty ledger.
    func ledger(mustExist: Bool) throws -> SQLiteGameStore {
        let directory = try directory().path
        let path = directory + "/" + SQLiteGameStore.fileName
        if mustExist, access(path, F_OK) != 0 {
            throw fail("\(path): no ledger here yet (pass --data DIR, or set GEOQR_DATA)")
        }
        do { return try SQLiteGameStore(directory: directory) } catch { throw fail("\(error)") }
    }
}
