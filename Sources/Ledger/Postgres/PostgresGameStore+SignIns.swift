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

    public func sessionPlayer(hunt: String, tokenSHA256: String, usedSince: Date, at time: Date) async throws -> String? {
        let hunt = hunt.uppercased()
        let found = try await read { sql in
            try await sql.row("SELECT player_id, COALESCE(last_used_ms, issued_ms) AS used_ms FROM sessions WHERE token_sha256 = ? AND hunt = ?",
                              tokenSHA256, hunt)
                .map { (player: $0["player_id"] as String, used: $0["used_ms"] as Int64) }
        }
        guard let found, found.used >= usedSince.millisecondsSince1970 else { return nil }
        let now = time.millisecondsSince1970
        if now - found.used >= 600_000 {   // a write at most every 10 minutes a session
            try await write { tx in
                try await tx.sql.execute("UPDATE sessions SET last_used_ms = ? WHERE token_sha256 = ? AND hunt = ?", now, tokenSHA256, hunt)
            }
        }
        return found.player
    }

    public func endSession(hunt: String, tokenSHA256: String) async throws {
        let hunt = hunt.uppercased()
        try await write { tx in try await tx.sql.execute("DELETE FROM sessions WHERE token_sha256 = ? AND hunt = ?", tokenSHA256, hunt) }
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
        try await changeGuesses(hunt: hunt, subject: subject) { policy.afterFailure($0, at: time) }
    }

    public func changeGuesses(hunt: String, subject: String, _ change: @escaping @Sendable (PINState) -> PINState) async throws -> PINState {
        let hunt = hunt.uppercased()
        return try await write { tx in
            // Group commit already runs one batch at a time (the chain head's lock); FOR UPDATE
            // says so here too, should that ever change.
            let after = change(try await Self.guessState(tx.sql, hunt: hunt, subject: subject, locking: true))
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
