import Foundation
import Ledger
import Play

/// The caches each player has found (voided finds left out), kept per player: the cache list
/// and every position a phone reports ask. Every find and void in the ledger marks what it
/// changed, whoever wrote it: this server's own at once, another's or another process's
/// (`geoqr gm void`) when ``LedgerFollower`` reads it, within about a second. So a kept set
/// is read again only after such a change, or once every ``maxAge`` in case a change was
/// missed (a follower that failed to read): a phone's poll no longer costs a read.
///
/// ```swift
/// let found = try await session.found.caches(of: "P3")   // ["A1", "B2"]
/// await session.found.changed(for: "P3")                 // after P3's find
/// session.found.changedForEveryone()                     // after a void (it names the find)
/// ```
final class FoundCaches: @unchecked Sendable {   // `byPlayer` only under `lock`
    private let store: any GameStore
    private let hunt: String
    private let lock = NSLock()
    private var byPlayer: [String: CachedRead<Set<String>>] = [:]
    /// A kept set is read again after this even when nothing marked it changed.
    static let maxAge: Duration = .seconds(60)

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

    /// A change whose player is not at hand (a void names its find): every set is read again.
    func changedForEveryone() {
        lock.withLock { byPlayer.removeAll() }
    }

    private func snapshot(of player: String) -> CachedRead<Set<String>> {
        lock.withLock {
            if let kept = byPlayer[player] { return kept }
            let snapshot = CachedRead(maxAge: Self.maxAge) { [store, hunt] in
                Set(try await store.liveFinds(hunt: hunt, player: player).map(\.cache))
            }
            byPlayer[player] = snapshot
            return snapshot
        }
    }
}
