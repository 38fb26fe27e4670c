import Foundation

/// What a store offers ``LedgerCopy``: its chain's head, its PIN hashes, and taking events
/// exactly as another store wrote them.
protocol LedgerCopying: GameStore {
    /// The last event's seq and hash (0 and ``LedgerEvent/genesisHash`` when there is none).
    func chainHead() async throws -> (seq: Int64, hash: String)
    /// Every player's PIN hash (``Credential``), which no event holds.
    func credentialRecords() async throws -> [Credential]
    /// Appends `events` as they are, in one transaction, each after the head, applying each to
    /// the derived tables; and sets `credentials`.
    func appendCopied(_ events: [LedgerEvent], credentials: [Credential]) async throws
}

/// Copies a ledger from one store to another (SQLite to PostgreSQL, and back): every event as
/// it was written, so the copy's chain and head hash are the original's, with the players' PIN
/// hashes, so they sign in as before. A target that already holds the beginning of the same
/// ledger (an earlier copy) gets only what it lacks; one that holds anything else is refused,
/// and nothing is written to it.
///
/// ```swift
/// let report = try await LedgerCopy.copy(from: sqlite, to: postgres)
/// print(report.copied, report.headHash)
/// ```
public enum LedgerCopy {
    /// What a copy did.
    public struct Report: Sendable, Equatable, Codable {
        /// Events the target had already (from an earlier copy).
        public var alreadyThere: Int64
        /// Events copied now.
        public var copied: Int
        /// The ledger's head hash, the same in both stores.
        public var headHash: String
    }

    /// Why a copy was refused.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case notCopyable
        case otherLedger(String)

        public var description: String {
            switch self {
            case .notCopyable: "this store cannot be copied to or from"
            case .otherLedger(let why): "the target holds another ledger (\(why)); copy to an empty database or data directory"
            }
        }
    }

    /// Copies what `target` lacks of `source`, `chunk` events a transaction; `progress` is told
    /// how many of the source's events the target holds after each.
    public static func copy(from source: any GameStore, to target: any GameStore, chunk: Int = 1000,
                            progress: @Sendable (_ done: Int64, _ total: Int64) -> Void = { _, _ in }) async throws -> Report {
        guard let source = source as? any LedgerCopying, let target = target as? any LedgerCopying else {
            throw Failure.notCopyable
        }
        let end = try await source.chainHead(), start = try await target.chainHead()
        if start.seq > end.seq {
            throw Failure.otherLedger("it has \(start.seq) events, the source \(end.seq)")
        }
        if start.seq > 0 {
            let same = try await source.events(after: start.seq - 1, limit: 1).first
            guard same?.hash == start.hash else { throw Failure.otherLedger("its event \(start.seq) differs from the source's") }
        }
        let credentials = try await source.credentialRecords()
        var cursor = start.seq, copied = 0
        progress(cursor, end.seq)
        while cursor < end.seq {
            let page = try await source.events(after: cursor, limit: chunk).filter { $0.seq <= end.seq }
            guard let last = page.last else { break }
            let pins = credentials.filter { $0.seq > cursor && $0.seq <= last.seq }
            try await target.appendCopied(page, credentials: pins)
            copied += page.count
            cursor = last.seq
            progress(cursor, end.seq)
        }
        return Report(alreadyThere: start.seq, copied: copied, headHash: end.hash)
    }
}
