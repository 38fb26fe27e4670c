import Foundation
import GeoQR

// Sign-ins and wrong guesses are kept in private tables beside the ledger, never in its events:
// a session is a secret, a wrong guess is no game act. Every server on the store answers every
// player from them.
extension GameStore {
    /// Keeps a sign-in session: the SHA-256 (hex) of the token the player's browser holds,
    /// never the token, so a copy of the database signs nobody in.
    ///
    /// ```swift
    /// try await store.keepSession(hunt: "DEMO", player: "P3", tokenSHA256: digest, at: .now)
    /// ```
    public func keepSession(hunt: String, player: String, tokenSHA256: String, at time: Date) async throws {
        let hunt = hunt.uppercased()
        try await perform(LedgerAct { _ in
            .privateOnly([ProjectionStatement("""
                INSERT INTO sessions (token_sha256, hunt, player_id, issued_ms) VALUES (?, ?, ?, ?)
                ON CONFLICT (token_sha256) DO NOTHING
                """, tokenSHA256, hunt, player, time.millisecondsSince1970)], answer: ())
        })
    }

    /// The player a session (by its token's SHA-256) signs in, or nil.
    public func sessionPlayer(hunt: String, tokenSHA256: String) async throws -> String? {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            try facts.row("SELECT player_id FROM sessions WHERE token_sha256 = ? AND hunt = ?", tokenSHA256, hunt)?["player_id"]
        })
    }

    /// The player a session signs in if it was used since `usedSince`, or nil; a session used
    /// again is marked used at `time` (at most every 10 minutes, so a request costs no write).
    public func sessionPlayer(hunt: String, tokenSHA256: String, usedSince: Date, at time: Date) async throws -> String? {
        let hunt = hunt.uppercased()
        let found = try await query(LedgerRead { facts -> SessionUse? in
            try facts.row("""
                SELECT player_id, COALESCE(last_used_ms, issued_ms) AS used_ms FROM sessions WHERE token_sha256 = ? AND hunt = ?
                """, tokenSHA256, hunt).map { SessionUse(player: $0["player_id"], usedMs: $0["used_ms"]) }
        })
        guard let found, found.usedMs >= usedSince.millisecondsSince1970 else { return nil }
        let now = time.millisecondsSince1970
        if now - found.usedMs >= 600_000 {
            try await perform(LedgerAct { _ in
                .privateOnly([ProjectionStatement("UPDATE sessions SET last_used_ms = ? WHERE token_sha256 = ? AND hunt = ?",
                                                  now, tokenSHA256, hunt)], answer: ())
            })
        }
        return found.player
    }

    /// Ends one session (a sign-out).
    public func endSession(hunt: String, tokenSHA256: String) async throws {
        let hunt = hunt.uppercased()
        try await perform(LedgerAct { _ in
            .privateOnly([ProjectionStatement("DELETE FROM sessions WHERE token_sha256 = ? AND hunt = ?", tokenSHA256, hunt)],
                         answer: ())
        })
    }

    /// Ends every session of a player (a PIN reset does it too, in its own transaction).
    public func endSessions(hunt: String, player: String) async throws {
        let hunt = hunt.uppercased()
        try await perform(LedgerAct { _ in
            .privateOnly([ProjectionStatement("DELETE FROM sessions WHERE hunt = ? AND player_id = ?", hunt, player)], answer: ())
        })
    }

    /// Wrong guesses counted against `subject` (``GeoQR/PINPolicy``'s state; none yet: zero).
    public func guesses(hunt: String, subject: String) async throws -> PINState {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in try facts.guessState(hunt: hunt, subject: subject) })
    }

    /// Counts one wrong guess against `subject` under `policy`, read and written in one
    /// transaction (two servers counting at once both count), and answers the state after it.
    ///
    /// ```swift
    /// let after = try await store.countWrongGuess(hunt: "DEMO", subject: "pin 203.0.113.9 ada",
    ///                                             policy: .perAddress, at: .now)
    /// ```
    public func countWrongGuess(hunt: String, subject: String, policy: PINPolicy, at time: Date) async throws -> PINState {
        try await changeGuesses(hunt: hunt, subject: subject) { policy.afterFailure($0, at: time) }
    }

    /// Changes the state kept for `subject` by `change`, read and written in one transaction
    /// (group commit runs one batch at a time, on every server: the chain head's lock), and
    /// answers the state after it (a refund of an attempt counted in advance, a trusted
    /// network's expiry).
    ///
    /// ```swift
    /// let after = try await store.changeGuesses(hunt: "DEMO", subject: "pins-for P3") { PINPolicy.perName.afterRefund($0) }
    /// ```
    public func changeGuesses(hunt: String, subject: String,
                              _ change: @escaping @Sendable (PINState) -> PINState) async throws -> PINState {
        let hunt = hunt.uppercased()
        return try await perform(LedgerAct { facts in
            let after = change(try facts.guessState(hunt: hunt, subject: subject))
            return .privateOnly([ProjectionStatement("""
                INSERT INTO guesses (hunt, subject, failures, locked_until_ms) VALUES (?, ?, ?, ?)
                ON CONFLICT (hunt, subject) DO UPDATE SET failures = excluded.failures, locked_until_ms = excluded.locked_until_ms
                """, hunt, subject, after.failures, after.lockedUntil?.millisecondsSince1970)], answer: after)
        })
    }

    /// A right guess clears the subject's count.
    public func clearGuesses(hunt: String, subject: String) async throws {
        let hunt = hunt.uppercased()
        try await perform(LedgerAct { _ in
            .privateOnly([ProjectionStatement("DELETE FROM guesses WHERE hunt = ? AND subject = ?", hunt, subject)], answer: ())
        })
    }
}

private struct SessionUse: Sendable {
    let player: String
    let usedMs: Int64
}
