import Foundation
import Ledger
import Play

/// Players as the ledger recorded them when they joined, kept once read: a player's id,
/// name, team and joining time never change, so the requests that name a player by id (every
/// `/api/me`, every find's news) ask SQLite once per player, not once per request.
///
/// ```swift
/// let ada = try await session.players.player(id: "P3")
/// ```
final class PlayerDirectory: @unchecked Sendable {   // `known` only under `lock`
    private let store: any GameStore
    private let hunt: String
    private let lock = NSLock()
    private var known: [String: Player] = [:]

    init(store: any GameStore, hunt: String) {
        self.store = store
        self.hunt = hunt
    }

    /// The player with this id, or nil (a name is not an id here).
    func player(id: String) async throws -> Player? {
        let key = id.uppercased()
        if let player = lock.withLock({ known[key] }) { return player }
        guard let player = try await store.player(hunt: hunt, named: key), player.id == key else { return nil }
        remember(player)
        return player
    }

    /// A player just read or written elsewhere (a join, a sign-in), so the first request
    /// naming them needs no read.
    func remember(_ player: Player) {
        lock.withLock { known[player.id] = player }
    }
}

/// The caches each player has found (voided finds left out), kept per player: the signed-in
/// cache list asks on every poll. This server's finds and voids mark the player's changed;
/// a change made by another process (`geoqr gm void`) is seen within about a second
/// (``LedgerSnapshot``).
///
/// ```swift
/// let found = try await session.found.caches(of: "P3")   // ["A1", "B2"]
/// await session.found.changed(for: "P3")                 // after P3's find
/// ```
final class FoundCaches: @unchecked Sendable {   // `byPlayer` only under `lock`
    private let store: any GameStore
    private let hunt: String
    private let lock = NSLock()
    private var byPlayer: [String: LedgerSnapshot<Set<String>>] = [:]

    init(store: any GameStore, hunt: String) {
        self.store = store
        self.hunt = hunt
    }

    func caches(of player: String) async throws -> Set<String> {
        try await snapshot(of: player).value()
    }

    func changed(for player: String) async {
        await snapshot(of: player).invalidate()
    }

    private func snapshot(of player: String) -> LedgerSnapshot<Set<String>> {
        lock.withLock {
            if let kept = byPlayer[player] { return kept }
            let snapshot = LedgerSnapshot(maxAge: .seconds(1)) { [store, hunt] in
                Set(try await store.finds(hunt: hunt, player: player).filter { $0.voidReason == nil }.map(\.cache))
            }
            byPlayer[player] = snapshot
            return snapshot
        }
    }
}

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
