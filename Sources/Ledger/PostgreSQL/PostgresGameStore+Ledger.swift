import Foundation
import GRDB

extension PostgresGameStore {
    /// Checks the ledger as SQLite's store does, with the same ``LedgerVerifier``: the events,
    /// the credentials and the derived tables are read in one snapshot into a scratch SQLite
    /// database of the same schema, and verified there. So both stores give the same report,
    /// and the same head hash, for the same events.
    public func scrub() async throws {
        // Plain VACUUM: it frees the dead rows' space for reuse without locking the servers
        // out, as VACUUM FULL would.
        try await read { sql in
            try await sql.execute("VACUUM events, players, finds, attempts, items, reports, credentials, sessions, guesses")
        }
    }

    public func verify() async throws -> LedgerVerification {
        let tables = ["events", "credentials"] + LedgerSchema.derivedTables.map(\.name)
        let copied = try await read(snapshot: true) { sql in
            var copied: [(table: String, rows: [LedgerRow])] = []
            for table in tables { copied.append((table, try await sql.rows("SELECT * FROM \(table)"))) }
            return copied
        }
        do {
            let scratch = try DatabaseQueue()
            try LedgerSchema.migrator.migrate(scratch)
            try await scratch.write { db in
                for (table, rows) in copied {
                    for row in rows {
                        let columns = row.ordered
                        try db.cachedStatement(sql: """
                            INSERT INTO \(table) (\(columns.map(\.name).joined(separator: ", ")))
                            VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))
                            """).execute(arguments: StatementArguments(columns.map(\.value.databaseValue)))
                    }
                }
            }
            return try await scratch.read { db in try LedgerVerifier.verify(db) }
        } catch {
            throw LedgerError.from(error, path: "\(location) (verifying)")
        }
    }
}

extension PostgresGameStore: LedgerCopying {
    func chainHead() async throws -> (seq: Int64, hash: String) {
        try await read { sql in
            guard let row = try await sql.row("SELECT seq, hash FROM chain_head WHERE id = 1") else {
                throw PostgresStoreError.noLedger("\(self.location)")
            }
            return (row["seq"], row["hash"])
        }
    }

    func credentialRecords() async throws -> [Credential] {
        try await read { sql in
            try await sql.rows("SELECT * FROM credentials ORDER BY seq").map {
                Credential(hunt: $0["hunt"], playerID: $0["player_id"], pinHash: $0["pin_hash"], seq: $0["seq"],
                           chainedInSeq: $0["chained_in_seq"], chainedPINHash: $0["chained_pin_hash"])
            }
        }
    }

    func appendCopied(_ events: [LedgerEvent], credentials: [Credential]) async throws {
        try await write { tx in
            for event in events {
                tx.insert(event)
                tx.buffer.add(try StateProjection.statements(for: event))
            }
            for c in credentials {
                try await tx.sql.execute("""
                    INSERT INTO credentials (hunt, player_id, pin_hash, seq, chained_in_seq, chained_pin_hash)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (player_id) DO UPDATE SET pin_hash = excluded.pin_hash, seq = excluded.seq,
                        chained_in_seq = excluded.chained_in_seq, chained_pin_hash = excluded.chained_pin_hash
                    """, c.hunt, c.playerID, c.pinHash, c.seq, c.chainedInSeq, c.chainedPINHash)
            }
        }
    }
}
