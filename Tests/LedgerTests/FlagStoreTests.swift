import Foundation
import GeoQR
@testable import Ledger
import Testing

@Suite("Anti-cheat flags from a real ledger")
struct FlagStoreTests {
    /// A claim a few metres from the cache, as a phone would make it.
    func honest(_ player: String, _ cache: String, minutes: Double, photo: String? = nil) -> ClaimRecord {
        var c = claim(player, cache, minutes: minutes, photo: photo)
        c.location = c.location.map { Coordinate(latitude: $0.latitude + 0.00004, longitude: $0.longitude) }
        return c
    }

    @Test(arguments: StoreKind.tested) func theStoreFlagsWhatTheRulesFlagAndVoidedFindsRaiseNone(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada"), bob = try await store.player("Bob")
        _ = try await store.record(honest(ada.id, "A1", minutes: 0, photo: "p1"), in: testHunt)
        // A2 is a kilometre north of A1: in 6 seconds that is 600 km/h.
        _ = try await store.record(honest(ada.id, "A2", minutes: 0.1), in: testHunt)
        // Bob hands in Ada's photo of A1, and claims B1 from its exact coordinates.
        _ = try await store.record(honest(bob.id, "A1", minutes: 30, photo: "p1"), in: testHunt)
        _ = try await store.record(claim(bob.id, "B1", minutes: 60), in: testHunt)

        let flags = try await store.flags(in: testHunt)
        #expect(flags.map(\.kind) == [.tooFast, .samePhoto, .exactCoordinates])
        #expect(flags.map(\.player) == [ada.id, bob.id, bob.id])
        #expect(flags.map(\.cache) == ["A2", "A1", "B1"])

        let finds = try await store.finds(hunt: "TEST", player: nil)
        let all = CheatFlags.flags(finds.map(\.facts), in: testHunt)
        #expect(all == flags, "the store applies the pure rules to its finds")

        _ = try await store.voidFind(hunt: "TEST", id: flags[0].find, reason: "drove", by: "gm", at: t0)
        #expect(try await store.flags(in: testHunt).map(\.kind) == [.samePhoto, .exactCoordinates])
    }
}
