import Foundation
import GeoQR
@testable import Ledger
import Testing

@Suite("Claims, finds, points and cards in a real ledger")
struct ClaimStoreTests {
    @Test(arguments: StoreKind.tested) func repeatedClaimReturnsTheOriginalFind(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        let first = try await store.found(ada, "A1")
        let again = try await store.record(claim(ada.id, "a1", minutes: 5), in: testHunt)
        #expect(again == .alreadyFound(first))
        #expect(try await store.finds(hunt: "TEST", player: "ada").count == 1)
    }

    @Test(arguments: StoreKind.tested) func concurrentIdenticalClaimsMakeOneFind(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        let outcomes = try await withThrowingTaskGroup(of: ClaimOutcome.self) { group in
            for _ in 0..<50 { group.addTask { try await store.record(claim(ada.id, "A2"), in: testHunt) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let news = outcomes.filter { if case .found = $0 { true } else { false } }
        #expect(news.count == 1)
        #expect(try await store.finds(hunt: "TEST", player: nil).count == 1)
    }

    @Test(arguments: StoreKind.tested) func rejectedClaimsAreKeptAsAttempts(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        let outcome = try await store.record(claim(ada.id, "A1", verdict: .tooFar), in: testHunt)
        #expect(outcome == .attempt(verdict: .tooFar))
        #expect(try await store.finds(hunt: "TEST", player: nil).isEmpty)
        let attempts = try await store.count("SELECT COUNT(*) FROM attempts")
        #expect(attempts == 1)
        await #expect(throws: GameRuleViolation.unknownPlayer("P99")) {
            try await store.record(claim("P99", "A1"), in: testHunt)
        }
    }

    @Test(arguments: StoreKind.tested) func pointsWithFirstToFindAndOrderedTrailBonus(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada"), bob = try await store.player("Bob")
        // Ada walks the trail in order: 3 × 10 + 3 × first-to-find 5 + trail 15 = 60.
        for (i, cache) in ["A1", "A2", "A3"].enumerated() { try await store.found(ada, cache, minutes: Double(i)) }
        // Bob walks it backwards: no bonus at all.
        for (i, cache) in ["A3", "A2", "A1"].enumerated() { try await store.found(bob, cache, minutes: Double(10 + i)) }
        let board = try await store.leaderboard(hunt: "TEST")
        #expect(board.map(\.name) == ["Ada", "Bob"])
        #expect(board.map(\.points) == [60, 30])
        #expect(board.map(\.finds) == [3, 3])
    }

    @Test(arguments: StoreKind.tested) func collectionNewestFirstAndNeverTwoOfACard(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        try await store.found(ada, "A1", minutes: 1)
        try await store.found(ada, "B1", minutes: 2)
        let cards = try await store.collection(hunt: "TEST", player: ada.id)
        #expect(cards.map(\.cache) == ["B1", "A1"])
        #expect(cards.first?.message == "Count the steps")
        #expect(cards.first?.foundLatitude == 40.64)
    }

    @Test(arguments: StoreKind.tested) func voidingAFindTakesItsPointsAndCard(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        let find = try await store.found(ada, "B1")
        await #expect(throws: GameRuleViolation.reasonMissing) {
            try await store.voidFind(hunt: "TEST", id: find.id, reason: " ", by: "gm", at: t0)
        }
        let void = try await store.voidFind(hunt: "TEST", id: find.id, reason: "photo taken from the road", by: "gm", at: t0)
        #expect(void.voidReason == "photo taken from the road")
        #expect(try await store.leaderboard(hunt: "TEST").first?.points == 0)
        #expect(try await store.collection(hunt: "TEST", player: ada.id).isEmpty)
        // A void find no longer blocks a genuine one.
        try await store.found(ada, "B1", minutes: 30)
        #expect(try await store.verify().isIntact)
    }

    @Test(arguments: StoreKind.tested) func disabledCacheClaimsAreAttempts(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        try await store.setCacheDisabled(true, cache: "A2", reason: "washed away", in: testHunt, by: "gm", at: t0)
        #expect(try await store.disabledCaches(hunt: "TEST") == ["A2"])
        #expect(try await store.record(claim(ada.id, "A2"), in: testHunt) == .attempt(verdict: .cacheDisabled))
        try await store.adjustPoints(hunt: "TEST", player: "Ada", amount: 7, reason: "helped fix A2", by: "gm", at: t0)
        #expect(try await store.leaderboard(hunt: "TEST").first?.points == 7)
    }

    @Test(arguments: StoreKind.tested) func reportsAreFiledAndResolved(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        let report = try await store.fileReport(cache: "A3", kind: .unreadable, text: "faded", photoSHA256: nil,
                                                by: ada.id, in: testHunt, at: t0)
        #expect(try await store.openReports(hunt: "TEST").map(\.id) == [report.id])
        _ = try await store.resolveReport(hunt: "TEST", id: report.id, resolution: "reprinted", by: "gm", at: t0)
        #expect(try await store.openReports(hunt: "TEST").isEmpty)
    }
}
