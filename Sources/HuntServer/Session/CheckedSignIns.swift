import Foundation
import Ledger
import Play

/// Sign-ins this server has checked, kept for a minute: every request carries a token, and a
/// phone asks every few seconds, so asking the store each time cost a read per request (and
/// under load, waiting for a reader was most of a claim's time). Only answers the store gave
/// are kept, never a refusal, so a token issued on another server signs in here at once.
///
/// A session that ends is forgotten at once wherever it ended: here (a sign-out, a PIN reset,
/// a player forgotten), through the ledger for PIN resets and forgotten players on any server
/// or `geoqr gm` (``LedgerNews``), and through the servers' news for a sign-out on another
/// server (``ServedHunt/tellOtherServers(signedOut:)``). ``maxAge`` only bounds what a lost
/// notice could leave behind, and how long an idle session's expiry may lag.
///
/// Each sign-in is kept for a time drawn between half ``maxAge`` and the whole of it, so the
/// sign-ins checked together are checked again spread over half a minute. Kept a fixed minute,
/// the 10,000 streams that open within two seconds (a server restarted, every phone
/// reconnecting) would need 10,000 reads of the store within two seconds a minute later, in
/// the way of every request that carries a token.
///
/// ```swift
/// let player = try await session.signedIn.player(for: token)   // "P3", or nil
/// ```
final class CheckedSignIns: @unchecked Sendable {   // `kept`, `tokens` only under `lock`
    private let signIns: SignIns
    private let lock = NSLock()
    private var kept: [String: (player: String, until: ContinuousClock.Instant)] = [:]
    /// The kept tokens of each player, so a player's sessions are forgotten without a search.
    private var tokens: [String: Set<String>] = [:]
    /// How long a checked sign-in is kept at most.
    static let maxAge: Duration = .seconds(60)

    /// How long one checked sign-in is kept: between half ``maxAge`` and the whole of it.
    static func keptFor() -> Duration { maxAge * Double.random(in: 0.5...1) }

    /// Until when `token`'s sign-in is kept, if it is (for tests).
    func keptUntil(_ token: String) -> ContinuousClock.Instant? { lock.withLock { kept[token]?.until } }

    init(_ signIns: SignIns) {
        self.signIns = signIns
    }

    func player(for token: String) async throws -> String? {
        let now = ContinuousClock.now
        if let known = lock.withLock({ kept[token] }), now < known.until { return known.player }
        guard let player = try await signIns.player(for: token) else {
            lock.withLock { drop(token) }
            return nil
        }
        lock.withLock {
            // Expired entries go when the table grows: a flood of sessions cannot fill memory.
            if kept.count > 100_000 { for (token, entry) in kept where entry.until <= now { drop(token) } }
            kept[token] = (player, now + Self.keptFor())
            tokens[player, default: []].insert(token)
        }
        return player
    }

    /// One session ended here (a sign-out).
    func forget(token: String) {
        lock.withLock { drop(token) }
    }

    /// The player's sessions ended (a sign-out of all of them, a PIN reset, the player forgotten).
    func forget(player: String) {
        lock.withLock {
            for token in tokens.removeValue(forKey: player) ?? [] { kept.removeValue(forKey: token) }
        }
    }

    private func drop(_ token: String) {
        guard let player = kept.removeValue(forKey: token)?.player else { return }
        tokens[player]?.remove(token)
        if tokens[player]?.isEmpty == true { tokens.removeValue(forKey: player) }
    }
}
