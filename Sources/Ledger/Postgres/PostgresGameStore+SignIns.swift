import Foundation
import GeoQR

extension PostgresGameStore {
    public func keepSession(hunt: String, player: String, tokenSHA256: String, at time: Date) async throws {
        let hunt = hunt.uppercased()
        try await write { tx in
            try await tx.sql.execute("INSERT INTO sessions (token_sha256, hunt, player_id, issued_ms) VALUES (?, ?, ?, ?) ON CONFLICT (token_sha256) DO NOTHING",
                                     tokenSHA256, hunt, player, time.millisecondsSince1970)
        }
    }

    public func sessionPlayer(hunt: String, tokenSHA256: String) async throws -> String? {
        let hunt = hunt.uppercased()
        return try await read { sql in
            try await sql.row("SELECT player_id FROM sessions WHERE token_sha256 = ? AND hunt = ?", tokenSHA256, hunt)
                .map { $0["player_id"] as String }
        }
    }

    public func endSessions(hunt: String, player: String) async throws {
        let hunt = hunt.uppercased()
        try await write { tx in try await tx.sql.execute("DELETE FROM sessions WHERE hunt = ? AND player_id = ?", hunt, player) }
    }

    public func guesses(hunt: String, subject: String) async throws -> PINState {
        let hunt = hunt.uppercased()
        return try await read { sql in try await Self.guessState(sql, hunt: hunt, subject: subject, locking: false) }
    }

    public func countWrongGuess(hunt: String, subject: String, policy: PINPolicy, at time: Date) async throws -> PINState {
        let hunt = hunt.uppercased()
        return try await write { tx in
            // Group commit already runs one batch at a time (the chain head's lock); FOR UPDATE
            // says so here too, should that ever change.
            let after = policy.afterFailure(try await Self.guessState(tx.sql, hunt: hunt, subject: subject, locking: true), at: time)
            try await tx.sql.execute("""
                INSERT INTO guesses (hunt, subject, failures, locked_until_ms) VALUES (?, ?, ?, ?)
                ON CONFLICT (hunt, subject) DO UPDATE SET failures = excluded.failures, locked_until_ms = excluded.locked_until_ms
                """, hunt, subject, Int64(after.failures), after.lockedUntil?.millisecondsSince1970)
            return after
        }
    }

    public func clearGuesses(hunt: String, subject: String) async throws {
        let hunt = hunt.uppercased()
        try await write { tx in try await tx.sql.execute("DELETE FROM guesses WHERE hunt = ? AND subject = ?", hunt, subject) }
    }

    static func guessState(_ sql: PostgresSQL, hunt: String, subject: String, locking: Bool) async throws -> PINState {
        guard let row = try await sql.row("SELECT failures, locked_until_ms FROM guesses WHERE hunt = ? AND subject = ?"
                                          + (locking ? " FOR UPDATE" : ""), hunt, subject) else { return PINState() }
        let until: Int64? = row["locked_until_ms"]
        let failures: Int64 = row["failures"]
        return PINState(failures: Int(failures), lockedUntil: until.map { Date(millisecondsSince1970: $0) })
    }
}
