import Foundation
import GeoQR
@testable import Ledger
import Testing

@Suite("Trades in a real ledger")
struct TradeStoreTests {
    @Test(arguments: StoreKind.tested) func acceptSwapsCards(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada"), bob = try await store.player("Bob")
        let adaCard = "C" + (try await store.found(ada, "A1")).id.dropFirst()
        let bobCard = "C" + (try await store.found(bob, "A2")).id.dropFirst()
        let offer = try await store.offerTrade(hunt: "TEST", from: "Ada", to: "Bob", give: [adaCard], receive: [bobCard],
                                               at: t0, lifetime: TradeOffer.defaultLifetime)
        #expect(offer.expiresAt == t0.addingTimeInterval(15 * 60))
        let done = try await store.acceptTrade(hunt: "TEST", id: offer.id, by: "bob", at: t0)
        #expect(done.state == .accepted)
        #expect(try await store.collection(hunt: "TEST", player: "Ada").map(\.cache) == ["A2"])
        #expect(try await store.collection(hunt: "TEST", player: "Bob").map(\.cache) == ["A1"])
        // Finds never move: a find is not an item.
        let find = try await store.finds(hunt: "TEST", player: "Ada")[0]
        await #expect(throws: GameRuleViolation.unknownItem(find.id)) {
            try await store.offerTrade(hunt: "TEST", from: "Ada", to: "Bob", give: [find.id], receive: [], at: t0,
                                       lifetime: 60)
        }
        #expect(try await store.verify().isIntact)
    }

    /// Found by the differential test: two cards of one cache swapped passed the rules, and then
    /// the ledger's one-card-per-cache index refused the first of the two moves as a storage fault.
    @Test(arguments: StoreKind.tested) func twoCardsOfOneCacheSwapHands(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada"), bob = try await store.player("Bob")
        let adaCard = "C" + (try await store.found(ada, "A1")).id.dropFirst()
        let bobCard = "C" + (try await store.found(bob, "A1", minutes: 5)).id.dropFirst()
        let offer = try await store.offerTrade(hunt: "TEST", from: "Ada", to: "Bob", give: [adaCard], receive: [bobCard],
                                               at: t0, lifetime: 600)
        #expect(try await store.acceptTrade(hunt: "TEST", id: offer.id, by: "Bob", at: t0).state == .accepted)
        #expect(try await store.collection(hunt: "TEST", player: "Ada").map(\.id) == [bobCard])
        #expect(try await store.collection(hunt: "TEST", player: "Bob").map(\.id) == [adaCard])
        #expect(try await store.verify().isIntact)
    }

    @Test(arguments: StoreKind.tested) func acceptFailsWhenAnItemIsGone(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        _ = try await store.player("Bob")
        _ = try await store.player("Cy")
        let card = "C" + (try await store.found(ada, "A1")).id.dropFirst()
        let toBob = try await store.offerTrade(hunt: "TEST", from: "Ada", to: "Bob", give: [card], receive: [], at: t0, lifetime: 600)
        let toCy = try await store.offerTrade(hunt: "TEST", from: "Ada", to: "Cy", give: [card], receive: [], at: t0, lifetime: 600)
        _ = try await store.acceptTrade(hunt: "TEST", id: toCy.id, by: "Cy", at: t0)
        await #expect(throws: GameRuleViolation.tradeItemGone(item: card)) {
            try await store.acceptTrade(hunt: "TEST", id: toBob.id, by: "Bob", at: t0)
        }
        #expect(try await store.trade(hunt: "TEST", id: toBob.id)?.state == .failed)
        #expect(try await store.collection(hunt: "TEST", player: "Cy").map(\.id) == [card])
    }

    @Test(arguments: StoreKind.tested) func acceptFailsOnADuplicateCard(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada"), bob = try await store.player("Bob")
        let card = "C" + (try await store.found(ada, "A1")).id.dropFirst()
        try await store.found(bob, "A1")
        let offer = try await store.offerTrade(hunt: "TEST", from: "Ada", to: "Bob", give: [card], receive: [], at: t0, lifetime: 600)
        await #expect(throws: GameRuleViolation.tradeDuplicateCard(player: bob.id, cache: "A1")) {
            try await store.acceptTrade(hunt: "TEST", id: offer.id, by: "Bob", at: t0)
        }
        #expect(try await store.collection(hunt: "TEST", player: "Ada").map(\.id) == [card])
    }

    @Test(arguments: StoreKind.tested) func acceptFailsWhenExpired(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        _ = try await store.player("Bob")
        let card = "C" + (try await store.found(ada, "A1")).id.dropFirst()
        let offer = try await store.offerTrade(hunt: "TEST", from: "Ada", to: "Bob", give: [card], receive: [], at: t0, lifetime: 60)
        await #expect(throws: GameRuleViolation.tradeExpired(offer.id)) {
            try await store.acceptTrade(hunt: "TEST", id: offer.id, by: "Bob", at: t0.addingTimeInterval(60))
        }
        #expect(try await store.trade(hunt: "TEST", id: offer.id)?.state == .expired)
    }

    @Test(arguments: StoreKind.tested) func declineAndCancelBelongToTheRightSide(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        _ = try await store.player("Bob")
        let card = "C" + (try await store.found(ada, "A1")).id.dropFirst()
        let offer = try await store.offerTrade(hunt: "TEST", from: "Ada", to: "Bob", give: [card], receive: [], at: t0, lifetime: 60)
        await #expect(throws: GameRuleViolation.notYourTrade(offer.id)) {
            try await store.declineTrade(hunt: "TEST", id: offer.id, by: "Ada", at: t0)
        }
        #expect(try await store.cancelTrade(hunt: "TEST", id: offer.id, by: "Ada", at: t0).state == .cancelled)
        await #expect(throws: GameRuleViolation.tradeNotOpen(id: offer.id, state: "cancelled")) {
            try await store.acceptTrade(hunt: "TEST", id: offer.id, by: "Bob", at: t0)
        }
    }

    @Test(arguments: StoreKind.tested) func concurrentConflictingAcceptsExactlyOneWins(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        let card = "C" + (try await store.found(ada, "A1")).id.dropFirst()
        let takers = 200
        var offers: [(player: String, trade: String)] = []
        for i in 0..<takers {
            let p = try await store.join(hunt: "TEST", name: "Taker \(i)", pin: "1234", team: nil, at: t0)
            let offer = try await store.offerTrade(hunt: "TEST", from: ada.id, to: p.id, give: [card], receive: [],
                                                   at: t0, lifetime: 600)
            offers.append((p.id, offer.id))
        }
        let results = await withTaskGroup(of: Result<TradeOffer, any Error>.self) { group in
            for (player, trade) in offers {
                group.addTask {
                    do { return .success(try await store.acceptTrade(hunt: "TEST", id: trade, by: player, at: t0)) }
                    catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let wins = results.compactMap { try? $0.get() }
        #expect(wins.count == 1)
        for case .failure(let error) in results {
            #expect(error as? GameRuleViolation == .tradeItemGone(item: card))
        }
        #expect(try await store.count("SELECT COUNT(*) FROM items WHERE id = '\(card)'") == 1)
        #expect(try await store.scalar("SELECT owner_id FROM items WHERE id = '\(card)'") == .text(wins[0].to))
        // No item anywhere has two rows (so two owners), and the ledger still verifies.
        let duplicated = try await store.count("SELECT COUNT(*) FROM (SELECT id FROM items GROUP BY id HAVING COUNT(*) > 1) AS twice")
        #expect(duplicated == 0)
        #expect(try await store.verify().isIntact)
    }
}
