import Foundation
import Ledger

/// Whether the game master has the hunt running. A stopped hunt refuses claims and trades;
/// reading the caches and the leaderboard still works. The state lives in the ledger
/// (`hunt-started` / `hunt-stopped` events), so it survives a restart of the server and a
/// stop is on record like any other game-master act.
struct HuntState: Sendable {
    let store: any GameStore
    let hunt: String

    /// Read from the ledger each time: another process (the command line) may have changed it.
    var running: Bool {
        get async throws { try await store.huntRunning(hunt: hunt) }
    }

    /// Records a start or a stop by the game master; a start of a running hunt records nothing.
    func set(running: Bool, at time: Date) async throws {
        try await store.setHuntRunning(running, hunt: hunt, by: "game-master", at: time)
    }

    func requireRunning() async throws {
        guard try await running else { throw APIError(.conflict, "hunt-stopped", "the game master has stopped the hunt") }
    }
}
