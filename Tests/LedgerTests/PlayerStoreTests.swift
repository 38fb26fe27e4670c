import Foundation
import GeoQR
@testable import Ledger
import Testing

@Suite("Players and PINs in a real ledger")
struct PlayerStoreTests {
    @Test(arguments: StoreKind.tested) func namesAreUniqueIgnoringCase(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        _ = try await store.player("Ada")
        await #expect(throws: GameRuleViolation.nameTaken("ADA")) { try await store.player("ADA") }
        // Another hunt may have its own Ada.
        _ = try await store.join(hunt: "OTHER", name: "ada", pin: "1234", team: nil, at: t0)
        #expect(try await store.player(hunt: "test", named: "aDa")?.name == "Ada")
    }

    @Test(arguments: StoreKind.tested) func lockoutAfterRepeatedWrongPINs(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind, .init(pinCost: 4, pinPolicy: PINPolicy(maxFailures: 3, lockout: 600)))
        defer { store.removeFolder() }
        _ = try await store.player("Ada")
        #expect(try await store.signIn(hunt: "TEST", name: "ada", pin: "1234", at: t0).name == "Ada")
        await #expect(throws: GameRuleViolation.wrongPIN(remainingTries: 2)) {
            try await store.signIn(hunt: "TEST", name: "Ada", pin: "0000", at: t0)
        }
        _ = try? await store.signIn(hunt: "TEST", name: "Ada", pin: "0000", at: t0)
        await #expect(throws: GameRuleViolation.lockedOut(until: t0.addingTimeInterval(600))) {
            try await store.signIn(hunt: "TEST", name: "Ada", pin: "0000", at: t0)
        }
        // Even the right PIN waits out the lockout…
        await #expect(throws: GameRuleViolation.lockedOut(until: t0.addingTimeInterval(600))) {
            try await store.signIn(hunt: "TEST", name: "Ada", pin: "1234", at: t0.addingTimeInterval(60))
        }
        // …and works after it.
        #expect(try await store.signIn(hunt: "TEST", name: "Ada", pin: "1234", at: t0.addingTimeInterval(601)).name == "Ada")
        #expect(try await store.verify().isIntact)
    }

    @Test(arguments: StoreKind.tested) func pinIsStoredAsBcrypt(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        _ = try await store.player("Ada")
        guard case .text(let hash) = try await store.scalar("SELECT pin_hash FROM credentials") else {
            throw TestFailure("no PIN hash stored")
        }
        #expect(hash.hasPrefix("$2b$04$"))
        await #expect(throws: GameRuleViolation.pinTooShort) {
            try await store.join(hunt: "TEST", name: "Bob", pin: "12", team: nil, at: t0)
        }
    }
}

@Suite("Durability settings")
struct DurabilityTests {
    @Test func writerRunsWALWithSynchronousFull() async throws {
        let store = try makeStore()
        defer { store.removeFolder() }
        #expect(try store.synchronousLevel() == 2)
        let mode = try await store.pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let relaxed = try makeStore(.init(pinCost: 4, synchronousFull: false))
        defer { relaxed.removeFolder() }
        #expect(try relaxed.synchronousLevel() == 1)
    }
}
