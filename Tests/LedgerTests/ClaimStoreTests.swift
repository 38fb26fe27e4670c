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

    /// Claims sent together share a batch, whose facts PostgreSQL's store reads at once: each
    /// claim must still be judged on what came before it in the batch (another's find of the
    /// cache, the same player's other find, the first sending of its id).
    @Test(arguments: StoreKind.tested) func claimsSentTogetherAreJudgedOnWhatCameBefore(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        var players: [Player] = []
        for i in 0..<12 { players.append(try await store.player("Walker \(i)")) }
        let sendings = players.flatMap { p in
            ["A1", "B1"].flatMap { cache in
                (0..<2).map { _ in
                    var c = claim(p.name.lowercased(), cache)   // named, not by id
                    c.claimID = "\(p.id)-\(cache)"
                    return c
                }
            }
        }
        let outcomes = try await withThrowingTaskGroup(of: (String, ClaimOutcome).self) { group in
            for c in sendings { group.addTask { (c.claimID!, try await store.record(c, in: testHunt)) } }
            group.addTask {
                await #expect(throws: GameRuleViolation.unknownPlayer("Nobody")) {
                    try await store.record(claim("Nobody", "A1"), in: testHunt)
                }
                return ("", .attempt(verdict: .noCode))
            }
            return try await group.reduce(into: [String: [ClaimOutcome]]()) { $0[$1.0, default: []].append($1.1) }
        }
        for (id, answers) in outcomes where !id.isEmpty {
            let found = answers.filter { if case .found = $0 { true } else { false } }
            let resent = answers.filter { if case .resent(.found) = $0 { true } else { false } }
            #expect(found.count == 1 && resent.count == 1, "\(id): \(answers)")
        }
        let finds = try await store.finds(hunt: "TEST", player: nil)
        #expect(finds.count == 24)
        #expect(Set(finds.map { "\($0.player) \($0.cache)" }).count == 24)
        #expect(finds.filter(\.firstToFind).map(\.cache).sorted() == ["A1", "B1"])
        #expect(try await store.verify().isIntact)
    }

    /// A trail's caches claimed at once land in one batch: the last one recorded must still see
    /// the others, in the order they were scanned, for the trail bonus.
    @Test(arguments: StoreKind.tested) func aTrailClaimedAllAtOnceEarnsItsBonus(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        var walkers: [Player] = []
        for i in 0..<16 { walkers.append(try await store.player("Runner \(i)")) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (minutes, cache) in [(2.0, "A3"), (0, "A1"), (1, "A2")] {
                for walker in walkers {
                    group.addTask { _ = try await store.record(claim(walker.id, cache, minutes: minutes), in: testHunt) }
                }
            }
            try await group.waitForAll()
        }
        // Each: 3 × 10 + trail 15, as when walked one after another; and one first-to-find
        // (5) of each cache among them.
        let points = try await store.leaderboard(hunt: "TEST").map(\.points)
        #expect(points.count == 16 && points.allSatisfy { $0 >= 45 } && points.reduce(0, +) == 16 * 45 + 3 * 5, "\(points)")
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
