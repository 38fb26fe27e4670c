import GRDB

/// A player's PIN hash, in the private `credentials` table beside the events and never in them:
/// the ledger is published with a hunt's results, and a four-digit PIN falls to its bcrypt hash
/// in minutes. The table is not derived from events (verification does not rebuild it) and no
/// export reads it. It is written in the same transaction as the event that needs it: the
/// player's join, or the game master's PIN reset.
///
/// ```swift
/// try Credential(hunt: "DEMO", playerID: "P3", pinHash: hash, seq: 3).insert(db)   // at the join
/// let hash = try Credential.fetchOne(db, key: "P3")?.pinHash
/// ```
struct Credential: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "credentials"

    var hunt: String
    var playerID: String
    /// The hash sign-in checks (bcrypt).
    var pinHash: String
    /// The event that set ``pinHash``: the join, or the last PIN reset.
    var seq: Int64
    /// For a ledger written before migration "v3: credentials outside the chain": the
    /// `player-joined` event whose hashed body held ``chainedPINHash``. A PIN reset leaves both
    /// alone, since that event's hash still covers the old PIN's hash.
    var chainedInSeq: Int64?
    var chainedPINHash: String?

    enum CodingKeys: String, CodingKey {
        case hunt, playerID = "player_id", pinHash = "pin_hash", seq
        case chainedInSeq = "chained_in_seq", chainedPINHash = "chained_pin_hash"
    }

    static let createTableSQL = """
        CREATE TABLE credentials (
            hunt TEXT NOT NULL, player_id TEXT PRIMARY KEY, pin_hash TEXT NOT NULL, seq INTEGER NOT NULL,
            chained_in_seq INTEGER UNIQUE, chained_pin_hash TEXT,
            CHECK ((chained_in_seq IS NULL) = (chained_pin_hash IS NULL))
        );
        """

    /// Gives a player a new PIN hash, set by event `seq` (their join, or a PIN reset); keeps
    /// what the chain needs.
    static func replacing(hunt: String, player: String, pinHash: String, seq: Int64) -> ProjectionStatement {
        ProjectionStatement("""
            INSERT INTO credentials (hunt, player_id, pin_hash, seq) VALUES (?, ?, ?, ?)
            ON CONFLICT (player_id) DO UPDATE SET pin_hash = excluded.pin_hash, seq = excluded.seq
            """, hunt, player, pinHash, seq)
    }

    /// The PIN hashes that old events' hashes cover, by event seq.
    static func chainedHashes(_ db: Database) throws -> [Int64: String] {
        let rows = try Credential.filter(Column("chained_in_seq") != nil).fetchAll(db)
        return Dictionary(uniqueKeysWithValues: rows.compactMap { c in c.chainedInSeq.map { ($0, c.chainedPINHash ?? "") } })
    }
}
