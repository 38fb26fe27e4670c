import GRDB

/// Migration "v3: credentials outside the chain": PIN hashes leave the events and the derived
/// `players` table for ``Credential``'s private table, so that no export of the ledger hands
/// them out. The events keep their hashes: each moved hash is kept beside the event that held
/// it (`chained_in_seq`), and verification puts it back (``ChainedPINHash``), so an old ledger
/// verifies to the same head hash after the migration as before.
///
/// ```swift
/// migrator.registerMigration(CredentialsMigration.name, migrate: CredentialsMigration.migrate)
/// ```
enum CredentialsMigration {
    static let name = "v3: credentials outside the chain"

    /// The append-only triggers of migration "v1: events", word for word: dropped for the
    /// rewrite of the old bodies, then made again.
    static let appendOnlyTriggersSQL = """
        CREATE TRIGGER events_no_update BEFORE UPDATE ON events
            BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: events cannot be changed'); END;
        CREATE TRIGGER events_no_delete BEFORE DELETE ON events
            BEGIN SELECT RAISE(ABORT, 'the ledger is append-only: events cannot be deleted'); END;
        """

    static func migrate(_ db: Database) throws {
        try db.execute(sql: Credential.createTableSQL)
        try db.execute(sql: "DROP TRIGGER IF EXISTS events_no_update; DROP TRIGGER IF EXISTS events_no_delete;")
        let joins = try SQLRequest<Row>(literal: """
            SELECT seq, hunt, body FROM events WHERE kind = \(EventKind.playerJoined.rawValue) ORDER BY seq
            """).fetchAll(db)
        for row in joins {
            let seq: Int64 = row["seq"], body: String = row["body"]
            let joined = try BodyCoding.decode(PlayerJoined.self, from: body)
            guard let pinHash = joined.pinHash else { continue }
            var credential = Credential(hunt: row["hunt"], playerID: joined.player, pinHash: pinHash, seq: seq)
            // A body that would not come back byte for byte keeps its hash: removing it would
            // break the chain. Every body this program wrote comes back (a test shows it).
            if let (stored, _) = try ChainedPINHash.split(body) {
                try db.execute(literal: "UPDATE events SET body = \(stored) WHERE seq = \(seq)")
                credential.chainedInSeq = seq
                credential.chainedPINHash = pinHash
            }
            try credential.insert(db)
        }
        try db.execute(sql: appendOnlyTriggersSQL)
        try db.execute(sql: "ALTER TABLE players DROP COLUMN pin_hash")
    }
}
