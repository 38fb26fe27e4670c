import Foundation
import GRDB
import GeoQR

extension SQLiteGameStore {
    public func keepSession(hunt: String, player: String, tokenSHA256: String, at time: Date) async throws {
        let hunt = hunt.uppercased()
        try await write { db in
            try db.execute(literal: """
                INSERT INTO sessions (token_sha256, hunt, player_id, issued_ms)
                VALUES (\(tokenSHA256), \(hunt), \(player), \(time.millisecondsSince1970))
                ON CONFLICT (token_sha256) DO NOTHING
                """)
        }
    }

    public func sessionPlayer(hunt: String, tokenSHA256: String) async throws -> String? {
        let hunt = hunt.uppercased()
        return try await read { db in
            try SQLRequest<String>(literal: "SELECT player_id FROM sessions WHERE token_sha256 = \(tokenSHA256) AND hunt = \(hunt)")
                .fetchOne(db)
        }
    }

    public func sessionPlayer(hunt: String, tokenSHA256: String, usedSince: Date, at time: Date) async throws -> String? {
        let hunt = hunt.uppercased()
        let found = try await read { db in
            try SQLRequest<Row>(literal: """
                SELECT player_id, COALESCE(last_used_ms, issued_ms) AS used_ms FROM sessions
                WHERE token_sha256 = \(tokenSHA256) AND hunt = \(hunt)
                """).fetchOne(db).map { (player: $0["player_id"] as String, used: $0["used_ms"] as Int64) }
        }
        guard let found, found.used >= usedSince.millisecondsSince1970 else { return nil }
        let now = time.millisecondsSince1970
        if now - found.used >= 600_000 {   // a write at most every 10 minutes a session
            try await write { db in
                try db.execute(literal: "UPDATE sessions SET last_used_ms = \(now) WHERE token_sha256 = \(tokenSHA256) AND hunt = \(hunt)")
            }
        }
        return found.player
    }

    public func endSession(hunt: String, tokenSHA256: String) async throws {
        let hunt = hunt.uppercased()
        try await write { db in try db.execute(literal: "DELETE FROM sessions WHERE token_sha256 = \(tokenSHA256) AND hunt = \(hunt)") }
    }

    public func endSessions(hunt: String, player: String) async throws {
        let hunt = hunt.uppercased()
        try await write { db in try db.execute(literal: "DELETE FROM sessions WHERE hunt = \(hunt) AND player_id = \(player)") }
    }

    public func guesses(hunt: String, subject: String) async throws -> PINState {
        let hunt = hunt.uppercased()
        return try await read { db in try Self.guessState(db, hunt: hunt, subject: subject) }
    }

    public func countWrongGuess(hunt: String, subject: String, policy: PINPolicy, at time: Date) async throws -> PINState {
        try await changeGuesses(hunt: hunt, subject: subject) { policy.afterFailure($0, at: time) }
    }

    public func changeGuesses(hunt: String, subject: String, _ change: @escaping @Sendable (PINState) -> PINState) async throws -> PINState {
        let hunt = hunt.uppercased()
        return try await write { db in
            let after = change(try Self.guessState(db, hunt: hunt, subject: subject))
            try db.execute(literal: """
                INSERT INTO guesses (hunt, subject, failures, locked_until_ms)
                VALUES (\(hunt), \(subject), \(after.failures), \(after.lockedUntil?.millisecondsSince1970))
                ON CONFLICT (hunt, subject) DO UPDATE SET failures = excluded.failures, locked_until_ms = excluded.locked_until_ms
                """)
            return after
        }
    }

    public func clearGuesses(hunt: String, subject: String) async throws {
        let hunt = hunt.uppercased()
        try await write { db in try db.execute(literal: "DELETE FROM guesses WHERE hunt = \(hunt) AND subject = \(subject)") }
    }

    static func guessState(_ db: Database, hunt: String, subject: String) throws -> PINState {
        guard let row = try SQLRequest<Row>(literal: """
            SELECT failures, locked_until_ms FROM guesses WHERE hunt = \(hunt) AND subject = \(subject)
            """).fetchOne(db) else { return PINState() }
        let until: Int64? = row["locked_until_ms"]
        return PINState(failures: row["failures"], lockedUntil: until.map { Date(millisecondsSince1970: $0) })
    }
}
