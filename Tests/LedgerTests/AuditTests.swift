import Foundation
import GeoQR
@testable import Ledger
import Testing

@Suite("Ledger verification and secret rotation")
struct AuditTests {
    /// A small history: two players, three finds, a trade.
    /// The caller removes the store's folder when it is done.
    func history() async throws -> SQLiteGameStore {
        let store = try makeStore()
        let ada = try await store.player("Ada"), bob = try await store.player("Bob")
        let card = "C" + (try await store.found(ada, "A1")).id.dropFirst()
        try await store.found(ada, "A2", minutes: 1)
        try await store.found(bob, "B1", minutes: 2)
        let offer = try await store.offerTrade(hunt: "TEST", from: "Ada", to: "Bob", give: [card], receive: [], at: t0, lifetime: 60)
        _ = try await store.acceptTrade(hunt: "TEST", id: offer.id, by: "Bob", at: t0)
        return store
    }

    @Test func intactLedgerVerifies() async throws {
        let store = try await history()
        defer { store.removeFolder() }
        let report = try await store.verify()
        #expect(report.isIntact)
        #expect(report.events == 7)
    }

    @Test func eventsAreAppendOnlyForTheProgram() async throws {
        let store = try await history()
        defer { store.removeFolder() }
        await #expect(throws: (any Error).self) { try await store.tamper("UPDATE events SET actor = 'x' WHERE seq = 3") }
        await #expect(throws: (any Error).self) { try await store.tamper("DELETE FROM events WHERE seq = 7") }
    }

    @Test func editedEventIsNamed() async throws {
        let store = try await history()
        defer { store.removeFolder() }
        try await store.tamper("""
            DROP TRIGGER events_no_update;
            UPDATE events SET body = replace(body, '"player":"P2"', '"player":"P1"') WHERE seq = 5;
            """)
        let report = try await store.verify()
        #expect(report.firstBadSeq == 5)
        #expect(report.problem?.contains("altered") == true)
    }

    @Test func removedEventIsNamed() async throws {
        let store = try await history()
        defer { store.removeFolder() }
        try await store.tamper("DROP TRIGGER events_no_delete; DELETE FROM events WHERE seq = 4;")
        #expect(try await store.verify().firstBadSeq == 4)
    }

    @Test func editedDerivedRowIsNamed() async throws {
        let store = try await history()
        defer { store.removeFolder() }
        // Give Bob's find (event 5) to Ada by hand: the chain holds, the state does not.
        try await store.tamper("UPDATE finds SET player_id = 'P1' WHERE id = 'F5'")
        let report = try await store.verify()
        #expect(report.firstBadSeq == 5)
        #expect(report.problem?.contains("finds") == true)
        try await store.tamper("UPDATE finds SET player_id = 'P2' WHERE id = 'F5'; UPDATE points SET amount = 1000 WHERE seq = 3")
        #expect(try await store.verify().firstBadSeq == 3)
    }

    @Test func rotatedSecretRejectsOldCodesAsForged() async throws {
        let store = try makeStore()
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        let old = HuntSecret.random()
        let printed = CacheCode.payload(hunt: "TEST", cache: "A1", secret: old)
        #expect(testHunt.verify(printed, secret: old) == .success(testHunt.cache(id: "A1")!))
        let fresh = HuntSecret.random()
        try await store.recordSecretRotation(hunt: "TEST", fingerprint: SecretRotation.fingerprint(of: fresh), by: "gm", at: t0)
        // The scanner checks codes against the current secret only: the old sheet is forged now.
        #expect(testHunt.verify(printed, secret: fresh) == .failure(.badMAC))
        let outcome = try await store.record(claim(ada.id, "A1", verdict: .forged), in: testHunt)
        #expect(outcome == .attempt(verdict: .forged))
        let reprinted = CacheCode.payload(hunt: "TEST", cache: "A1", secret: fresh)
        #expect(testHunt.verify(reprinted, secret: fresh) == .success(testHunt.cache(id: "A1")!))
        let rotations = try await store.events(after: 0, limit: 10).filter { $0.kind == "secret-rotated" }
        #expect(rotations.count == 1)
        #expect(!rotations[0].body.contains(fresh.bytes.map { String(format: "%02x", $0) }.joined()))
        #expect(try await store.verify().isIntact)
    }
}
