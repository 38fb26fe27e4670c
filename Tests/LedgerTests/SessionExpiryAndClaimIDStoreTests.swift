import Foundation
import GRDB
import GeoQR
@testable import Ledger
import Testing

/// Issue 24 in the stores: sessions that expire and end one by one, attempts counted in advance
/// that are given back, and claim ids that are each player's own. Both stores.
@Suite("Sessions that expire, refunded guesses, claim ids per player")
struct SessionExpiryAndClaimIDStoreTests {
    let ada = String(repeating: "a", count: 64), adaLaptop = String(repeating: "b", count: 64)

    @Test(arguments: StoreKind.tested) func sessionsSlideAndExpireAndEndOneByOne(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let p1 = try await store.join(hunt: "TEST", name: "Ada", pin: "4321", team: nil, at: t0).id
        try await store.keepSession(hunt: "TEST", player: p1, tokenSHA256: ada, at: t0)
        try await store.keepSession(hunt: "TEST", player: p1, tokenSHA256: adaLaptop, at: t0)
        let day: TimeInterval = 24 * 3600
        func alive(_ digest: String, at time: Date, on s: any GameStore) async throws -> String? {
            try await s.sessionPlayer(hunt: "TEST", tokenSHA256: digest, usedSince: time.addingTimeInterval(-day), at: time)
        }
        // Used 20 hours in: that use slides the phone's session on; the laptop's is not used.
        #expect(try await alive(ada, at: t0.addingTimeInterval(20 * 3600), on: store) == p1)
        let other = try await store.reopened()   // another server on the same ledger
        #expect(try await alive(ada, at: t0.addingTimeInterval(day + 3600), on: other) == p1, "24 h since its last use, not since issue")
        #expect(try await alive(adaLaptop, at: t0.addingTimeInterval(day + 3600), on: other) == nil, "unused for 25 h: expired")
        #expect(try await alive(ada, at: t0.addingTimeInterval(25 * 3600 + day + 60), on: other) == nil, "unused for 24 h: expired")

        // Signing out ends that session only.
        let phone = String(repeating: "c", count: 64), laptop = String(repeating: "d", count: 64)
        try await store.keepSession(hunt: "TEST", player: p1, tokenSHA256: phone, at: t0.addingTimeInterval(3 * day))
        try await store.keepSession(hunt: "TEST", player: p1, tokenSHA256: laptop, at: t0.addingTimeInterval(3 * day))
        #expect(try await alive(phone, at: t0.addingTimeInterval(3 * day), on: other) == p1)
        try await other.endSession(hunt: "TEST", tokenSHA256: phone)
        #expect(try await alive(phone, at: t0.addingTimeInterval(3 * day), on: store) == nil)
        #expect(try await alive(laptop, at: t0.addingTimeInterval(3 * day), on: store) == p1)
        #expect(try await store.verify().isIntact)
    }

    @Test(arguments: StoreKind.tested) func attemptsCountedInAdvanceAreGivenBackAndNeverPassTheLimit(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let policy = PINPolicy(maxFailures: 10, lockout: 1800), subject = "pins-for P1"
        // 40 attempts at once, as 40 addresses would send them: exactly 10 are admitted.
        let admitted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<40 {
                group.addTask { policy.admits(try await store.countWrongGuess(hunt: "TEST", subject: subject, policy: policy, at: t0)) }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(admitted == 10)
        let locked = try await store.guesses(hunt: "TEST", subject: subject)
        #expect(locked.failures == 40 && locked.lockedUntil == t0.addingTimeInterval(1800), "a refused attempt does not lengthen the lock")
        // After the lock the count starts again; a right one is given back.
        let later = t0.addingTimeInterval(1801)
        #expect(try await store.countWrongGuess(hunt: "TEST", subject: subject, policy: policy, at: later).failures == 1)
        let back = try await store.reopened().changeGuesses(hunt: "TEST", subject: subject) { policy.afterRefund($0) }
        #expect(back == PINState())
    }

    /// A ledger of the release before: its claim ids and sessions come through the migrations.
    @Test func theMigrationsKeepClaimIDsAndSessions() throws {
        let queue = try DatabaseQueue()
        try LedgerSchema.migrator.migrate(queue, upTo: SignInsSchema.name)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO claim_ids (hunt, claim_id, player_id, find_id, verdict, seq) VALUES ('TEST', 'c-1', 'P1', 'F2', 'claimable', 2)")
            try db.execute(sql: "INSERT INTO sessions (token_sha256, hunt, player_id, issued_ms) VALUES ('\(ada)', 'TEST', 'P1', 5)")
        }
        try LedgerSchema.migrator.migrate(queue)
        try queue.write { db in
            #expect(try Row.fetchOne(db, sql: "SELECT player_id, find_id FROM claim_ids WHERE claim_id = 'c-1'") == ["player_id": "P1", "find_id": "F2"])
            // Another player's claim under the same id is a row of its own now.
            try db.execute(sql: "INSERT INTO claim_ids (hunt, claim_id, player_id, find_id, verdict, seq) VALUES ('TEST', 'c-1', 'P3', NULL, 'too-far', 4)")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM claim_ids") == 2)
            #expect(try Row.fetchOne(db, sql: "SELECT issued_ms, last_used_ms FROM sessions") == ["issued_ms": 5, "last_used_ms": nil])
        }
    }

    @Test(arguments: StoreKind.tested) func aClaimIDIsEachPlayersOwn(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada"), bo = try await store.player("Bo")
        var adas = claim(ada.id, "A1")
        adas.claimID = "phone-1"
        guard case .found(let adaFind, _, _) = try await store.record(adas, in: testHunt) else { throw TestFailure("Ada's find") }

        // Bo sends Ada's claim id with a claim of his own: it is judged as his, and never answers with Ada's find.
        var bos = claim(bo.id, "B1", minutes: 1)
        bos.claimID = "phone-1"
        guard case .found(let boFind, _, _) = try await store.record(bos, in: testHunt) else {
            throw TestFailure("Bo's claim with Ada's id was not his own find")
        }
        #expect(boFind.player == bo.id && boFind.cache == "B1" && boFind.id != adaFind.id)
        // Bo sending that id again is answered with his own find, not Ada's.
        guard case .resent(.found(let bosAgain, _, _)) = try await store.record(bos, in: testHunt) else { throw TestFailure("Bo's resend") }
        #expect(bosAgain.id == boFind.id)
        // Each player's own resend answers with their own find.
        guard case .resent(.found(let again, _, _)) = try await store.record(adas, in: testHunt) else { throw TestFailure("Ada's resend") }
        #expect(again.id == adaFind.id)

        // Sent together (one PostgreSQL batch), the same id from two players makes two finds.
        let cy = try await store.player("Cy"), di = try await store.player("Di")
        let together = try await withThrowingTaskGroup(of: ClaimOutcome.self) { group in
            for p in [cy, di] {
                var c = claim(p.id, "A3", minutes: 3)
                c.claimID = "shared-id"
                group.addTask { try await store.record(c, in: testHunt) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(together.filter { if case .found = $0 { true } else { false } }.count == 2, "\(together)")
        #expect(try await store.verify().isIntact)
    }
}
