import Foundation
import Ledger
import Play

/// Sign-ins this server has checked, kept for a second: every request carries a token, and
/// asking the store each time would cost a read per request (three times fewer reads a second
/// on SQLite). Only answers the store gave are kept, never a refusal, so a token issued on
/// another server signs in here at once; a session ended here (a PIN reset) is forgotten at
/// once, one ended on another server within a second.
///
/// ```swift
/// let player = try await session.signedIn.player(for: token)   // "P3", or nil
/// ```
final class CheckedSignIns: @unchecked Sendable {   // `kept` only under `lock`
    private let signIns: SignIns
    private let lock = NSLock()
    private var kept: [String: (player: String, until: ContinuousClock.Instant)] = [:]
    private let maxAge: Duration = .seconds(1)

    init(_ signIns: SignIns) {
        self.signIns = signIns
    }

    func player(for token: String) async throws -> String? {
        let now = ContinuousClock.now
        if let known = lock.withLock({ kept[token] }), now < known.until { return known.player }
        guard let player = try await signIns.player(for: token) else {
            lock.withLock { _ = kept.removeValue(forKey: token) }
            return nil
        }
        lock.withLock {
            // Expired entries go when the table grows: a flood of sessions cannot fill memory.
            if kept.count > 100_000 { kept = kept.filter { now < $0.value.until } }
            kept[token] = (player, now + maxAge)
        }
        return player
    }

    /// One session ended here (a sign-out).
    func forget(token: String) {
        lock.withLock { _ = kept.removeValue(forKey: token) }
    }

    /// The player's sessions ended (their PIN was reset here).
    func forget(player: String) {
        lock.withLock { kept = kept.filter { $0.value.player != player } }
    }
}
