import Foundation
import Ledger

/// Whether the game master has the hunt running. A stopped hunt refuses claims and trades;
/// reading the caches and the leaderboard still works. The state lives in the ledger
/// (`hunt-started` / `hunt-stopped` events), so it survives a restart of the server and a
/// stop is on record like any other game-master act.
///
/// Every claim asks, so the answer is kept (``CachedRead``): a start or stop from the
/// admin page applies to the next request; one recorded by another process is seen within
/// about a second.
struct HuntState: Sendable {
    let store: any GameStore
    let hunt: String
    private let kept: CachedRead<Bool>

    init(store: any GameStore, hunt: String) {
        self.store = store
        self.hunt = hunt
        kept = CachedRead(maxAge: .seconds(1)) { try await store.huntRunning(hunt: hunt) }
    }

    var running: Bool {
        get async throws { try await kept.value() }
    }

    /// The game master started or stopped the hunt here: the next request reads the ledger.
    func changed() async {
        await kept.invalidate()
    }
}
