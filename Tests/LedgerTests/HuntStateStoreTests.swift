import Foundation
import GeoQR
@testable import Ledger
import Testing

@Suite("Hunt start and stop as game-master events")
struct HuntStateStoreTests {
    @Test(arguments: StoreKind.tested) func stopAndStartAreEventsProjectedAndVerified(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        #expect(try await store.huntRunning(hunt: "TEST"), "a hunt runs until it is stopped")
        #expect(try await store.setHuntRunning(true, hunt: "TEST", by: "gm", at: t0) == false, "already running: no event")
        #expect(try await store.setHuntRunning(false, hunt: "test", by: "gm", at: t0))
        #expect(try await store.huntRunning(hunt: "TEST") == false)
        #expect(try await store.huntRunning(hunt: "OTHER"), "one hunt's stop is not another's")
        #expect(try await store.events(after: 0, limit: 10).map(\.kind) == ["hunt-stopped"])

        // A reopened store (another process) reads it from the database.
        let reopened = try await store.reopened()
        #expect(try await reopened.huntRunning(hunt: "TEST") == false)
        try await reopened.setHuntRunning(true, hunt: "TEST", by: "gm", at: t0.addingTimeInterval(60))
        #expect(try await store.huntRunning(hunt: "TEST"))
        #expect(try await store.verify().isIntact)

        // A hand edit of the derived state is caught and names the event that shaped the row.
        try await store.tamper("UPDATE hunt_state SET running = 0")
        let report = try await store.verify()
        #expect(report.firstBadSeq == 2, "\(report.problem ?? "")")
        #expect(report.problem?.contains("hunt_state") == true)
    }
}
