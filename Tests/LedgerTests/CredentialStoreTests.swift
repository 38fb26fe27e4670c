import Foundation
import GRDB
import GeoQR
@testable import Ledger
import Testing

/// PIN hashes live in the private `credentials` table, never in an event (issue 12 §7).
@Suite("Credentials outside the chain")
struct CredentialStoreTests {
    @Test(arguments: StoreKind.tested) func joinWritesNoHashIntoItsEvent(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        _ = try await store.join(hunt: "TEST", name: "Ada", pin: "1234", team: "Gulls", at: t0)
        let events = try await store.events(after: 0, limit: 10)
        // The name is sealed in the private part (so that forgetting the player can drop it).
        let body = try #require(events.first?.body)
        #expect(events.count == 1 && body.hasPrefix(#"{"player":"P1","private":{"name":"Ada","nameKey":"ada","salt":""#)
                && body.hasSuffix(#"},"team":"Gulls","v":2}"#), "\(body)")
        #expect(!body.contains("pinHash") && !body.contains("$2b$"))
        let hash = try await store.scalar("SELECT pin_hash FROM credentials WHERE player_id = 'P1'")
        guard case .text(let pinHash) = hash else { throw TestFailure("no PIN hash for P1: \(String(describing: hash))") }
        #expect(pinHash.hasPrefix("$2b$04$"))
        #expect(try await store.count("SELECT seq FROM credentials WHERE player_id = 'P1' AND chained_in_seq IS NULL") == 1)
        #expect(try await store.verify().isIntact)
    }

    @Test(arguments: StoreKind.tested) func resetLetsOnlyTheNewPINInAndLiftsTheLockout(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind, .init(pinCost: 4, pinPolicy: PINPolicy(maxFailures: 2, lockout: 600)))
        defer { store.removeFolder() }
        _ = try await store.player("Ada")
        for _ in 0..<2 { _ = try? await store.signIn(hunt: "TEST", name: "Ada", pin: "0000", at: t0) }
        await #expect(throws: GameRuleViolation.lockedOut(until: t0.addingTimeInterval(600))) {
            try await store.signIn(hunt: "TEST", name: "Ada", pin: "1234", at: t0)
        }
        let ada = try await store.resetPIN(hunt: "test", player: "ada", pin: "8642", by: "gm", at: t0)
        #expect(ada.id == "P1" && ada.name == "Ada")
        #expect(try await store.signIn(hunt: "TEST", name: "Ada", pin: "8642", at: t0).id == "P1")
        await #expect(throws: GameRuleViolation.wrongPIN(remainingTries: 1)) {
            try await store.signIn(hunt: "TEST", name: "Ada", pin: "1234", at: t0)
        }
        let reset = try await store.events(after: 0, limit: 10).first { $0.kind == EventKind.pinReset.rawValue }
        // Format 2: who was reset is in the private part, withheld from the published ledger.
        #expect(try reset.map { try $0.decodedBody() } == .pinReset(PINReset(player: "P1")) && reset?.actor == "gm")
        #expect(reset?.body.hasPrefix(#"{"private":{"player":"P1","salt":""#) == true)
        #expect(try await store.verify().isIntact)
    }

    @Test(arguments: StoreKind.tested) func resetRefusesUnknownPlayersAndBadPINsAndWritesNothing(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        _ = try await store.player("Ada")
        await #expect(throws: GameRuleViolation.unknownPlayer("Bob")) {
            try await store.resetPIN(hunt: "TEST", player: "Bob", pin: "8642", by: "gm", at: t0)
        }
        await #expect(throws: GameRuleViolation.pinTooShort) {
            try await store.resetPIN(hunt: "TEST", player: "Ada", pin: "86", by: "gm", at: t0)
        }
        #expect(try await store.events(after: 0, limit: 10).count == 1)
    }

    @Test(arguments: StoreKind.tested) func aMissingCredentialIsOneLineAtSignIn(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        _ = try await store.player("Ada")
        try await store.tamper("DELETE FROM credentials")
        await #expect(throws: LedgerError.self) {
            try await store.signIn(hunt: "TEST", name: "Ada", pin: "1234", at: t0)
        }
        // The game master's reset gives the player a PIN again.
        _ = try await store.resetPIN(hunt: "TEST", player: "Ada", pin: "8642", by: "gm", at: t0)
        #expect(try await store.signIn(hunt: "TEST", name: "Ada", pin: "8642", at: t0).id == "P1")
    }

    /// Every join body the previous release wrote comes back byte for byte once its hash is put
    /// back, whatever the name: the migration rewrites a body only when it does.
    @Test func oldJoinBodiesComeBackByteForByte() throws {
        for (i, name) in CanonicalJSONTests.strings.enumerated() {
            let hash = "$2b$10$" + String(repeating: "./aZ09", count: 9)
            let old = try BodyCoding.encodeWithJSONEncoder(
                PlayerJoined(player: "P\(i)", name: name, nameKey: name.lowercased(), pinHash: hash, team: i % 2 == 0 ? nil : name))
            let (stored, pinHash) = try #require(try ChainedPINHash.split(old), "name \(i)")
            #expect(pinHash == hash && !stored.contains("pinHash"))
            #expect(try ChainedPINHash.restore(stored, pinHash: pinHash) == old, "name \(i)")
        }
    }
}
