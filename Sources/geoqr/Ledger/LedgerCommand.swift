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
        The ledger is one SQLite file in the data directory (ledger.sqlite), or a PostgreSQL \
        database named with --store postgres://… (or GEOQR_STORE) when several servers share a \
        hunt. Its events are append-only and hash-chained; every other table is derived from them. \
        `geoqr ledger copy` moves a ledger between the two.
        """,
        subcommands: [LedgerVerifyCommand.self, LedgerExportCommand.self, LedgerShowCommand.self,
                      LedgerCopyCommand.self, LedgerBenchCommand.self, LedgerLoadCommand.self]
    )
}
