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

    /// Lets go of a player kept here (they were forgotten: their name changed).
    func forget(player id: String) {
        _ = lock.withLock { known.removeValue(forKey: id.uppercased()) }
    }

    /// A player just read or written elsewhere (a join, a sign-in), so the first request
    /// naming them needs no read.
    func remember(_ player: Player) {
        lock.withLock { known[player.id] = player }
    }
}
