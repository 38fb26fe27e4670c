import ArgumentParser
import Foundation
import GeoQR
import Ledger

/// `geoqr ledger export`: every event, for archives and other tools.
struct LedgerExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the ledger's events.",
        discussion: """
        jsonl (the default) prints one JSON object per event per line; csv prints a header and \
        one row per event (RFC 4180); --json prints one JSON array. Fields: seq, time_ms, hunt, actor, \
        kind, body (the event's JSON), prev_hash, hash.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case jsonl, csv, json
    }

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "Output format: jsonl, csv or json.")
    var format: Format = .jsonl

    @Flag(help: "Same as --format json.")
    var json = false

    func run() async throws {
        let store = try await storeOptions.ledger(data: dataOptions, mustExist: true)
        let format = json ? .json : format
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if format == .csv { print(CSVWriter.line(["seq", "time_ms", "hunt", "actor", "kind", "body", "prev_hash", "hash"]), terminator: "") }
        if format == .json { print("[", terminator: "") }
        var after: Int64 = 0, first = true
        while true {
            let page: [LedgerEvent]
            do { page = try await store.events(after: after, limit: 1000) } catch { throw fail("\(error)") }
            guard let last = page.last else { break }
            for event in page {
                switch format {
                case .jsonl: print(String(decoding: try encoder.encode(event), as: UTF8.self))
                case .json:
                    print((first ? "\n" : ",\n") + String(decoding: try encoder.encode(event), as: UTF8.self), terminator: "")
                case .csv:
                    let fields = [String(event.seq), String(event.timeMs), event.hunt, event.actor, event.kind,
                                  event.body, event.prevHash, event.hash]
                    print(CSVWriter.line(fields), terminator: "")
                }
                first = false
            }
            after = last.seq
        }
        if format == .json { print(first ? "]" : "\n]") }
    }
}
