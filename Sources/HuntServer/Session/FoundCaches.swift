import Foundation
import Ledger
import Play

/// The caches each player has found (voided finds left out), kept per player: the signed-in
/// cache list asks on every poll. This server's finds and voids mark the player's changed;
/// a change made by another process (`geoqr gm void`) is seen within about a second
/// (``CachedRead``).
///
/// ```swift
/// let found = try await session.found.caches(of: "P3")   // ["A1", "B2"]
/// await session.found.changed(for: "P3")                 // after P3's find
/// ```
final class FoundCaches: @unchecked Sendable {   // `byPlayer` only under `lock`
    private let store: any GameStore
    private let hunt: String
    private let lock = NSLock()
    private var byPlayer: [String: CachedRead<Set<String>>] = [:]

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

    private func snapshot(of player: String) -> CachedRead<Set<String>> {
        lock.withLock {
            if let kept = byPlayer[player] { return kept }
            let snapshot = CachedRead(maxAge: .seconds(1)) { [store, hunt] in
                Set(try await store.liveFinds(hunt: hunt, player: player).map(\.cache))
            }
            byPlayer[player] = snapshot
            return snapshot
        }
    }
}
