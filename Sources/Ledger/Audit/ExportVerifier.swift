import Crypto
import Foundation

/// What `geoqr ledger verify FILE` found in an export, published or complete: the chain alone,
/// as an outsider who holds only the file can check it (no derived tables, no credentials).
///
/// ```swift
/// let report = try LedgerExportVerifier.verify(file: Data(contentsOf: url))
/// if !report.isIntact { print("export damaged at event \(report.firstBadSeq!): \(report.problem!)") }
/// ```
public struct ExportVerification: Sendable, Equatable, Codable {
    /// Events in the file, withheld ones included.
    public var events: Int
    /// The last event's hash, as `ledger verify` prints it for the ledger.
    public var headHash: String
    /// Events whose hash was recomputed from what the file shows.
    public var recomputed: Int
    /// Withheld events of format 2 (PIN checks): hash recomputed from their content hash.
    public var withheld: Int
    /// Events whose hash could not be recomputed from the file (withheld events of format 1;
    /// in a complete export, joins of format 1 whose PIN hash the ledger keeps apart): only their
    /// place in the chain was checked.
    public var linkedOnly: Int
    /// Private parts present (complete form) whose commitment was recomputed.
    public var privateParts: Int
    public var firstBadSeq: Int64?
    public var problem: String?

    public var isIntact: Bool { firstBadSeq == nil }
}

/// Checks an export file's chain: every seq from 1 on, every link, and every hash the file lets
/// anyone recompute, by the rule its format says (RELIABILITY.md, "A ledger one can publish").
public enum LedgerExportVerifier {
    /// The events of an export as `geoqr ledger export` writes them: JSON lines, or one JSON
    /// array (`--json`).
    public static func events(in data: Data) throws -> [ExportedEvent] {
        let decoder = JSONDecoder()
        if data.first(where: { !Self.isSpace($0) }) == UInt8(ascii: "[") {
            do { return try decoder.decode([ExportedEvent].self, from: data) } catch {
                throw LedgerError.corrupt("the export is not a JSON array of events: \(error)")
            }
        }
        var out: [ExportedEvent] = []
        for (n, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
        where line.contains(where: { !Self.isSpace($0) }) {
            do { out.append(try decoder.decode(ExportedEvent.self, from: Data(line))) } catch {
                throw LedgerError.corrupt("line \(n + 1) of the export is not an exported event: \(error)")
            }
        }
        return out
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    /// Verifies the events of an export file.
    public static func verify(file data: Data) throws -> ExportVerification {
        verify(try events(in: data))
    }

    public static func verify(_ events: [ExportedEvent]) -> ExportVerification {
        var report = ExportVerification(events: events.count, headHash: LedgerEvent.genesisHash, recomputed: 0,
                                        withheld: 0, linkedOnly: 0, privateParts: 0)
        var previous = LedgerEvent.genesisHash
        for (i, event) in events.enumerated() {
            let seq = Int64(i + 1)
            if let problem = check(event, seq: seq, previous: previous, report: &report) {
                report.firstBadSeq = seq
                report.problem = problem
                return report
            }
            previous = event.hash
            report.headHash = event.hash
        }
        return report
    }

    private static func check(_ e: ExportedEvent, seq: Int64, previous: String, report: inout ExportVerification) -> String? {
        if e.seq != seq { return "event \(seq) is missing (the next one in the file is \(e.seq))" }
        if e.prevHash != previous { return "event \(seq) does not link to event \(seq - 1) (previous hash differs)" }
        switch e.withheld {
        case ExportedEvent.withheldPrivate?:
            guard let content = e.contentHash else { return "event \(seq) is withheld without its content hash" }
            guard EventHash.link(seq: seq, content: content, prevHash: e.prevHash) == e.hash else {
                return "event \(seq) (withheld) was altered: its hash does not match its content hash"
            }
            report.withheld += 1
            return nil
        case ExportedEvent.withheldFormatOne?:
            report.linkedOnly += 1
            return nil
        case let other?:
            return "event \(seq) is withheld for a reason this release does not know: \(other)"
        case nil:
            break
        }
        guard let timeMs = e.timeMs, let hunt = e.hunt, let actor = e.actor, let kind = e.kind, let body = e.body else {
            return "event \(seq) lacks a field (time_ms, hunt, actor, kind and body are needed to recompute its hash)"
        }
        let event = LedgerEvent(seq: seq, timeMs: timeMs, hunt: hunt, actor: actor, kind: kind, body: body,
                                prevHash: e.prevHash, hash: e.hash)
        let reading = EventSeal.read(body)
        if EventHash.expected(for: event) == e.hash {
            report.recomputed += 1
            if reading.holdsPrivatePart { report.privateParts += 1 }
            return nil
        }
        // A join of format 1 written before migration v3 is hashed with the PIN hash that the
        // ledger keeps apart and no export holds.
        if reading.format == 1, kind == EventKind.playerJoined.rawValue {
            report.linkedOnly += 1
            return nil
        }
        return "event \(seq) (\(kind)) was altered: its hash does not match its contents"
    }
}
