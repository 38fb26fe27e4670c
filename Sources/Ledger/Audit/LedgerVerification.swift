/// What `ledger verify` found: how many events it checked, and the first event where the
/// chain breaks or the derived state stops matching what the events say.
///
/// ```swift
/// let report = try await store.verify()
/// if let seq = report.firstBadSeq { print("ledger damaged at event \(seq): \(report.problem!)") }
/// ```
public struct LedgerVerification: Sendable, Equatable, Codable {
    /// Events read.
    public var events: Int
    /// The last event's hash: the ledger's fingerprint, to note down and compare later.
    public var headHash: String
    /// The first event at which something diverges; nil when all is well.
    public var firstBadSeq: Int64?
    /// What diverged there, in words.
    public var problem: String?

    /// True when the chain holds and the derived tables match the events.
    public var isIntact: Bool { firstBadSeq == nil }
}
