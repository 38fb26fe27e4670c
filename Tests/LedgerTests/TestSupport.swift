import Foundation
import GeoQR
@testable import Ledger

/// The start of the name of each folder `makeStore` makes.
let temporaryLedgerPrefix = "ledger-tests-"

/// A real ledger file in a new temporary folder, with bcrypt at its cheapest. The test removes the
/// folder when it ends: `defer { store.removeFolder() }`.
func makeStore(_ configuration: SQLiteGameStore.Configuration = .init(pinCost: 4)) throws -> SQLiteGameStore {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(temporaryLedgerPrefix + UUID().uuidString).path
    return try SQLiteGameStore(directory: dir, configuration: configuration)
}

/// Four caches about a kilometre apart, and an ordered trail through three of them.
let testHunt = Hunt(
    id: "TEST", name: "Test hunt",
    trails: [Trail(id: "RIVER", name: "River walk", ordered: true, cacheIDs: ["A1", "A2", "A3"])],
    caches: [
        Cache(id: "A1", name: "Bridge", coordinate: Coordinate(latitude: 40.6400, longitude: -8.6500), message: "Under the bridge"),
        Cache(id: "A2", name: "Mill", coordinate: Coordinate(latitude: 40.6490, longitude: -8.6500), message: "Behind the wheel"),
        Cache(id: "A3", name: "Weir", coordinate: Coordinate(latitude: 40.6580, longitude: -8.6500), message: "Listen to the water"),
        Cache(id: "B1", name: "Tower", coordinate: Coordinate(latitude: 40.6400, longitude: -8.6382),
              difficulty: 3, terrain: 2, message: "Count the steps"),
    ])

let t0 = Date(timeIntervalSince1970: 1_750_000_000)

/// A claimable claim at the cache's own coordinates, `minutes` after t0.
func claim(_ player: String, _ cache: String, minutes: Double = 0, verdict: Verdict = .claimable,
           photo: String? = nil) -> ClaimRecord {
    ClaimRecord(player: player, hunt: testHunt.id, cache: cache, time: t0.addingTimeInterval(minutes * 60),
                location: testHunt.cache(id: cache)?.coordinate, method: .photo,
                evidence: ClaimEvidence(photoSHA256: photo, exifTime: t0), verdict: verdict)
}

extension GameStore {
    /// Joins a player with PIN 1234.
    func player(_ name: String) async throws -> Player {
        try await join(hunt: testHunt.id, name: name, pin: "1234", team: nil, at: t0)
    }

    /// Records a claimable claim and returns the find's card, failing the test otherwise.
    @discardableResult
    func found(_ player: Player, _ cache: String, minutes: Double = 0) async throws -> Find {
        guard case .found(let find, _, _) = try await record(claim(player.id, cache, minutes: minutes), in: testHunt) else {
            throw TestFailure("claim of \(cache) by \(player.name) was not a new find")
        }
        return find
    }
}

extension SQLiteGameStore {
    /// Runs raw SQL against the file, as a person with the sqlite3 shell would.
    func tamper(_ sql: String) async throws {
        try await pool.write { db in try db.execute(sql: sql) }
    }

    /// Removes the temporary folder `makeStore` made for this ledger, and only such a folder.
    /// The store is still open; on Linux its files stay readable to it until it closes them.
    func removeFolder() {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        guard folder.lastPathComponent.hasPrefix(temporaryLedgerPrefix) else { return }
        try? FileManager.default.removeItem(at: folder)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
