import Foundation
import GRDB

/// One entry of the ledger: the truth every other table is derived from. Events are only ever
/// appended; each carries the SHA-256 of the one before it, so an edited, removed or inserted
/// event breaks the chain from that point on.
///
/// ```swift
/// for event in try await store.events(after: 0, limit: 100) {
///     print(event.seq, event.kind, event.body)
/// }
/// ```
public struct LedgerEvent: Sendable, Equatable, Codable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "events"

    /// 1, 2, 3… in the order events were committed.
    public var seq: Int64
    /// When the act happened, in milliseconds since 1970 (the caller's clock, not the disk's).
    public var timeMs: Int64
    public var hunt: String
    /// Who acted: a player id (`P3`) or the game master, ``GeoQR/GameMaster/actor`` (`gm`).
    /// Ledgers written before that name was settled also hold `game-master` for acts from the
    /// admin page; both verify, since the chain hashes whatever was written.
    public var actor: String
    /// What happened (see ``EventKind``).
    public var kind: String
    /// The act's details, as compact JSON with sorted keys.
    public var body: String
    /// The previous event's ``hash`` (64 zeros for the first event), lower-case hex.
    public var prevHash: String
    /// SHA-256 over `prevHash` and every other field, lower-case hex.
    public var hash: String

    enum CodingKeys: String, CodingKey {
        case seq, timeMs = "time_ms", hunt, actor, kind, body, prevHash = "prev_hash", hash
    }

    /// The event's time as a date.
    public var time: Date { Date(millisecondsSince1970: timeMs) }

    /// The `prevHash` of the first event.
    public static let genesisHash = String(repeating: "0", count: 64)
}

extension Date {
    /// A date from whole milliseconds since 1970, as the ledger stores times.
    public init(millisecondsSince1970 ms: Int64) {
        self.init(timeIntervalSince1970: Double(ms) / 1000)
    }

    /// Milliseconds since 1970, to the nearest: a date made from whole milliseconds always
    /// gives them back, however its seconds were rounded in between.
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }
}
