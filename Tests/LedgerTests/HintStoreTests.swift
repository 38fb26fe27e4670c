import Foundation
import GeoQR
@testable import Ledger
import Testing

/// Paid hints in the ledger: one `hint-revealed` event per player and cache, its cost a
/// negative `points` row, both rebuilt by verification.
@Suite("Hints, teams and attempts in the ledger")
struct HintStoreTests {
    @Test(arguments: StoreKind.tested) func aHintIsChargedOnceAndSurvivesVerification(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        let find = try await store.found(ada, "A1")
        let before = try #require(try await store.leaderboard(hunt: "TEST").first).points

        let first = try await store.revealHint(cache: "a2", cost: 5, to: "Ada", in: testHunt, at: t0.addingTimeInterval(60))
        #expect(first.isNew && first.reveal == HintReveal(player: ada.id, cache: "A2", cost: 5, time: t0.addingTimeInterval(60)))
        let again = try await store.revealHint(cache: "A2", cost: 9, to: ada.id, in: testHunt, at: t0.addingTimeInterval(120))
        #expect(!again.isNew && again.reveal == first.reveal, "asking again answers the first record and writes nothing")

        #expect(try await store.leaderboard(hunt: "TEST").first?.points == before - 5)
        let events = try await store.events(after: 0, limit: 100).filter { $0.kind == "hint-revealed" }
        #expect(events.count == 1)
        #expect(try events.first?.decodedBody() == .hintRevealed(HintRevealed(player: ada.id, cache: "A2", cost: 5)))
        #expect(try await store.hints(hunt: "TEST", player: "ada").map(\.cache) == ["A2"])
        #expect(try await store.pointsByFind(hunt: "TEST") == [find.id: before], "a hint's cost belongs to no find")

        let report = try await store.verify()
        #expect(report.isIntact, "\(report.problem ?? "")")
        #expect(report.events == 3)
    }

    @Test(arguments: StoreKind.tested) func verificationRebuildsHintsAndTheirCost(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        _ = try await store.revealHint(cache: "A1", cost: 5, to: ada.id, in: testHunt, at: t0)
        // A hand edit of either derived row is named, with the event that wrote it (2).
        try await store.tamper("UPDATE points SET amount = -1 WHERE reason = 'hint: A1'")
        var report = try await store.verify()
        #expect(report.firstBadSeq == 2 && report.problem?.contains("points") == true, "\(report.problem ?? "")")
        try await store.tamper("UPDATE points SET amount = -5 WHERE reason = 'hint: A1'; DELETE FROM hints")
        report = try await store.verify()
        #expect(report.firstBadSeq == 2 && report.problem?.contains("hints") == true, "\(report.problem ?? "")")
    }

    @Test(arguments: StoreKind.tested) func unknownCachesAndPlayersAreRefused(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        _ = try await store.player("Ada")
        await #expect(throws: GameRuleViolation.unknownCache("ZZ")) {
            try await store.revealHint(cache: "ZZ", cost: 5, to: "Ada", in: testHunt, at: t0)
        }
        await #expect(throws: GameRuleViolation.unknownPlayer("Bob")) {
            try await store.revealHint(cache: "A1", cost: 5, to: "Bob", in: testHunt, at: t0)
        }
        #expect(try await store.events(after: 0, limit: 10).count == 1)
    }

    @Test(arguments: StoreKind.tested) func standingsCarryTheTeamAndAttemptsAreListed(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.join(hunt: "TEST", name: "Ada", pin: "1234", team: "Foxes", at: t0)
        let bob = try await store.player("Bob")
        try await store.found(ada, "A1")
        _ = try await store.record(claim(bob.id, "A2", minutes: 3, verdict: .tooFar), in: testHunt)
        _ = try await store.record(claim(bob.id, "A2", minutes: 4, verdict: .forged), in: testHunt)
        let board = try await store.leaderboard(hunt: "TEST")
        #expect(board.map(\.team) == ["Foxes", nil])
        let attempts = try await store.attempts(hunt: "TEST")
        #expect(attempts.map(\.verdict) == [.tooFar, .forged])
        #expect(attempts.allSatisfy { $0.cache == "A2" && $0.player == bob.id })
        #expect(attempts.last?.time == t0.addingTimeInterval(240))
    }
}
