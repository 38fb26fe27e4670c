import ArgumentParser
import Foundation
import GeoQR
import Ledger

/// `geoqr ledger export`: every event, for archives and other tools; by default in the form to
/// publish with the results, with `--private` as the game master keeps it.
struct LedgerExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the ledger's events, in the form to publish (default) or, with --private, all of them.",
        discussion: """
        jsonl (the default) prints one JSON object per event per line; csv prints a header and \
        one row per event (RFC 4180); --json prints one JSON array. Fields: seq, time_ms, hunt, actor, \
        kind, body (the event's JSON), prev_hash, hash; in the published form also withheld and \
        content_hash.

        The published form holds no position a player stood at, no report text or photo hash, no \
        game master's answer to a report and no PIN check or reset: each private part of a body \
        is replaced by its commitment, and PIN events are withheld, leaving their hash and \
        content hash. Events written before this format (their hashes cover the private fields) \
        are withheld where they hold any: only their place in the chain can be checked. Anyone \
        can recompute every other hash: `geoqr ledger verify FILE`, or \
        scripts/verify-ledger-export.py FILE with Python alone. --private prints every event as \
        the ledger stores it, private parts included: keep it to yourself.
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

    @Flag(name: .customLong("private"),
          help: "Everything, as the ledger stores it: players' positions, report texts, PIN checks (not for publishing).")
    var complete = false

    func run() async throws {
        let store = try await storeOptions.ledger(data: dataOptions, mustExist: true)
        let format = json ? .json : format
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let form: LedgerExportForm = complete ? .complete : .published
        var header = ["seq", "time_ms", "hunt", "actor", "kind", "body", "prev_hash", "hash"]
        if form == .published { header += ["withheld", "content_hash"] }
        if format == .csv { print(CSVWriter.line(header), terminator: "") }
        if format == .json { print("[", terminator: "") }
        var after: Int64 = 0, first = true
        while true {
            let page: [LedgerEvent]
            do { page = try await store.events(after: after, limit: 1000) } catch { throw CommandFailure("\(error)") }
            guard let last = page.last else { break }
            for stored in page {
                let event = stored.exported(form)
                switch format {
                case .jsonl: print(String(decoding: try encoder.encode(event), as: UTF8.self))
                case .json:
                    print((first ? "\n" : ",\n") + String(decoding: try encoder.encode(event), as: UTF8.self), terminator: "")
                case .csv:
                    var fields = [String(event.seq), event.timeMs.map(String.init) ?? "", event.hunt ?? "", event.actor ?? "",
                                  event.kind ?? "", event.body ?? "", event.prevHash, event.hash]
                    if form == .published { fields += [event.withheld ?? "", event.contentHash ?? ""] }
                    print(CSVWriter.line(fields), terminator: "")
                }
                first = false
            }
            after = last.seq
        }
        if format == .json { print(first ? "]" : "\n]") }
    }
}
