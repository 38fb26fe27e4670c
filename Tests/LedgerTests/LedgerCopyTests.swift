import Foundation
import GeoQR
@testable import Ledger
import Testing

/// `LedgerCopy` between the stores: the copy's chain, head hash and derived state are the
/// original's, its players sign in with their PINs, and a target holding another ledger is
/// refused untouched (issue 15 §1).
@Suite("Copying a ledger between stores", .timeLimit(.minutes(5)))
struct LedgerCopyTests {
    /// A ledger with every kind of act on it.
    static func play(_ store: any GameStore) async throws {
        let ada = try await store.player("Ada"), bob = try await store.player("Bob")
        let first = try await store.found(ada, "A1")
        try await store.found(ada, "A2", minutes: 1)
        try await store.found(bob, "B1", minutes: 2)
        _ = try await store.record(claim(bob.id, "A3", verdict: .tooFar), in: testHunt)
        _ = try? await store.signIn(hunt: "TEST", name: "Bob", pin: "0000", at: t0)
        let offer = try await store.offerTrade(hunt: "TEST", from: ada.id, to: bob.id, give: ["C" + first.id.dropFirst()],
                                               receive: [], at: t0, lifetime: 600)
        _ = try await store.acceptTrade(hunt: "TEST", id: offer.id, by: "Bob", at: t0)
        let bug = try await store.seedTrackable(name: "Bug", into: "A1", in: testHunt, by: "gm", at: t0)
        _ = try await store.pickUp(trackable: bug.id, from: "A1", by: "Ada", in: testHunt, at: t0)
        _ = try await store.drop(trackable: bug.id, into: "A2", by: "Ada", in: testHunt, at: t0)
        _ = try await store.revealHint(cache: "A3", cost: 5, to: "Bob", in: testHunt, at: t0)
        try await store.adjustPoints(hunt: "TEST", player: "Bob", amount: 3, reason: "helped", by: "gm", at: t0)
        try await store.setHuntRunning(false, hunt: "TEST", by: "gm", at: t0)
        _ = try await store.resetPIN(hunt: "TEST", player: "Bob", pin: "5555", by: "gm", at: t0)
    }

    @Test(.enabled(if: StoreKind.tested.contains(.postgres)))
    func sqliteToPostgresAndBackKeepsTheHeadHash() async throws {
        let original = try makeStore()
        defer { original.removeFolder() }
        try await Self.play(original)
        let truth = try await original.verify()
        #expect(truth.isIntact && truth.events > 15)

        let postgres = try await makeStore(.postgres)
        let there = try await LedgerCopy.copy(from: original, to: postgres, chunk: 7)
        #expect(there == .init(alreadyThere: 0, copied: truth.events, headHash: truth.headHash))
        let onPostgres = try await postgres.verify()
        #expect(onPostgres == truth, "\(onPostgres.problem ?? "")")
        #expect(try await postgres.events(after: 0, limit: 100) == original.events(after: 0, limit: 100))
        #expect(try await postgres.leaderboard(hunt: "TEST") == original.leaderboard(hunt: "TEST"))
        // PINs came along: the reset one signs in, the old one does not.
        #expect(try await postgres.signIn(hunt: "TEST", name: "Bob", pin: "5555", at: t0).id == "P2")
        await #expect(throws: GameRuleViolation.self) { try await postgres.signIn(hunt: "TEST", name: "Bob", pin: "1234", at: t0) }

        // Play goes on on PostgreSQL; a second copy back takes it all, then only what is new.
        let carol = try await postgres.player("Carol")
        try await postgres.found(carol, "A1", minutes: 9)
        let back = try makeStore()
        defer { back.removeFolder() }
        let home = try await LedgerCopy.copy(from: postgres, to: back)
        #expect(home.copied == truth.events + 3)   // Carol's join, find, and Bob's sign-in above
        let onPostgresNow = try await postgres.verify()
        #expect(try await back.verify() == onPostgresNow)
        #expect(onPostgresNow.headHash != truth.headHash)
        try await original.found(original.player("Dan"), "B1")
        await #expect(throws: LedgerCopy.Failure.self) { try await LedgerCopy.copy(from: original, to: back) }
        #expect(try await back.verify() == onPostgresNow, "a refused copy writes nothing")
        #expect(try await LedgerCopy.copy(from: postgres, to: back).copied == 0)
    }

    @Test(arguments: StoreKind.tested)
    func anotherLedgerIsRefusedAndLeftAlone(_ kind: StoreKind) async throws {
        let source = try makeStore(), target = try await makeStore(kind)
        defer { source.removeFolder(); target.removeFolder() }
        try await source.found(source.player("Ada"), "A1")
        try await target.player("Zoe")
        let before = try await target.verify()
        await #expect(throws: LedgerCopy.Failure.otherLedger("its event 1 differs from the source's")) {
            try await LedgerCopy.copy(from: source, to: target)
        }
        #expect(try await target.verify() == before)
    }
}
