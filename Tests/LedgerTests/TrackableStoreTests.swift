import Foundation
import GeoQR
@testable import Ledger
import Testing

@Suite("Trackables in a real ledger")
struct TrackableStoreTests {
    @Test(arguments: StoreKind.tested) func tripsAndTotalDistance(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada"), bob = try await store.player("Bob")
        let bug = try await store.seedTrackable(name: "Travel bug", into: "A1", in: testHunt, by: "gm", at: t0)
        #expect(bug.cache == "A1")
        await #expect(throws: GameRuleViolation.cacheNotFoundByPlayer(cache: "A1", player: ada.id)) {
            try await store.pickUp(trackable: bug.id, from: "A1", by: ada.id, in: testHunt, at: t0)
        }
        try await store.found(ada, "A1")
        try await store.found(ada, "A2")
        _ = try await store.pickUp(trackable: bug.id, from: "A1", by: ada.id, in: testHunt, at: t0)
        await #expect(throws: GameRuleViolation.sameCache("A1")) {
            try await store.drop(trackable: bug.id, into: "A1", by: ada.id, in: testHunt, at: t0)
        }
        let dropped = try await store.drop(trackable: bug.id, into: "A2", by: ada.id, in: testHunt, at: t0)
        #expect(dropped.cache == "A2" && dropped.holder == nil)
        try await store.found(bob, "A2")
        try await store.found(bob, "B1")
        _ = try await store.pickUp(trackable: bug.id, from: "A2", by: bob.id, in: testHunt, at: t0)
        let travelled = try await store.drop(trackable: bug.id, into: "B1", by: bob.id, in: testHunt, at: t0)
        let a1 = testHunt.cache(id: "A1")!.coordinate, a2 = testHunt.cache(id: "A2")!.coordinate
        let b1 = testHunt.cache(id: "B1")!.coordinate
        #expect(travelled.trips.map(\.to) == ["A2", "B1"])
        #expect(abs(travelled.trips[0].distance! - a1.distance(to: a2)) < 1e-6)
        #expect(abs(travelled.totalDistance - (a1.distance(to: a2) + a2.distance(to: b1))) < 1e-6)
        #expect(abs(travelled.trips[0].distance! - 1000) < 10)   // 0.009° of latitude ≈ 1 km
        #expect(try await store.verify().isIntact)
    }
}
