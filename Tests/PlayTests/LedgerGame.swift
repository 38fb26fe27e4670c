import Foundation
import GeoQR
import Ledger
import Play

/// A game on a real SQLite ledger in a temporary folder, with a clock the test moves and a
/// fresh secret: what the Play suites that record acts start from.
///
/// ```swift
/// let played = try LedgerGame(hunt: hunt, label: "courses")
/// defer { played.remove() }
/// ```
struct LedgerGame {
    let folder: URL
    let clock = GameTests.Clock()
    let secret = HuntSecret.random()
    let game: Game

    init(hunt: Hunt, label: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        let store = try SQLiteGameStore(directory: folder.path, configuration: .init(pinCost: 4, pinPolicy: .perPlayer))
        let clock = self.clock
        game = Game(hunt: hunt, secret: secret, store: store, clock: { clock.read() })
    }

    /// The printed code of `cache`.
    func code(_ cache: String) -> String { CacheCode.payload(hunt: game.hunt.id, cache: cache, secret: secret) }

    /// A browser's fix at `cache`'s coordinates.
    func near(_ cache: String, accuracy: Double = 5) -> ClaimLocation {
        ClaimLocation(coordinate: game.hunt.cache(id: cache)?.coordinate ?? Coordinate(latitude: 0, longitude: 0),
                      accuracy: accuracy, source: .browser)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
