import Foundation
import GeoQR
@testable import Ledger
import Testing

/// The leaderboard a served hunt keeps in memory (``LeaderboardBook``) is the store's, act by
/// act, while it reads only the players each act named.
@Suite("The leaderboard kept in memory")
struct LeaderboardBookTests {
    /// A seeded run of every kind of act (``ActScript``: joins, claims, hints, trades, voids,
    /// points, forgotten players, refused acts…): after each, the book answers what the store's
    /// whole read answers, in the same order.
    @Test(arguments: StoreKind.tested) func followsEveryActAsTheStoreReadsIt(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let book = LeaderboardBook(store: store, hunt: testHunt.id)
        var script = ActScript(seed: 0x6c65_6164_6572_6221)
        var refreshes: [String: Int] = [:]
        for index in 0..<600 {
            let act = try await script.next(reading: store)
            let answer = await act.run(on: store)
            script.learn(from: answer, of: act)
            let kept = try await book.standings()
            let read = try await store.leaderboard(hunt: testHunt.id)
            guard kept == read else {
                Issue.record("after act \(index + 1), \(act): the book has\n\(kept)\nthe store\n\(read)")
                return
            }
            switch await book.lastRefresh {
            case .none: refreshes["none", default: 0] += 1
            case .players: refreshes["players", default: 0] += 1
            case .whole: refreshes["whole", default: 0] += 1
            }
        }
        // Each way of bringing the board up to date was taken (a void reads it whole).
        #expect(refreshes["players", default: 0] > 100, "\(refreshes)")
        #expect(refreshes["none", default: 0] > 50, "\(refreshes)")
        #expect(refreshes["whole", default: 0] > 1, "\(refreshes)")
    }

    @Test(arguments: StoreKind.tested) func readsOnlyThePlayersTheNewEventsName(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        var players: [Player] = []
        for name in ["Ada", "Bob", "Cy", "Dee", "Eve", "Fay"] { players.append(try await store.player(name)) }
        let book = LeaderboardBook(store: store, hunt: testHunt.id)
        _ = try await book.standings()
        #expect(await book.lastRefresh == .whole)

        let find = try await store.found(players[3], "B1")
        let afterFind = try await book.standings()
        #expect(await book.lastRefresh == .players(1))
        #expect(afterFind.first?.player == players[3].id)
        #expect(afterFind == (try await store.leaderboard(hunt: testHunt.id)))

        // A sign-in writes an event that changes no line.
        _ = try await store.signIn(hunt: testHunt.id, name: "Bob", pin: "1234", at: t0)
        #expect(try await book.standings() == afterFind)
        #expect(await book.lastRefresh == .none)

        _ = try await store.player("Gil")
        let afterJoin = try await book.standings()
        #expect(await book.lastRefresh == .players(1))
        #expect(afterJoin.count == 7)

        // A voided find names only the find: the whole board is read again.
        _ = try await store.voidFind(hunt: testHunt.id, id: find.id, reason: "photo taken from the road", by: "gm", at: t0)
        let afterVoid = try await book.standings()
        #expect(await book.lastRefresh == .whole)
        #expect(afterVoid.allSatisfy { $0.points == 0 })
        #expect(afterVoid == (try await store.leaderboard(hunt: testHunt.id)))
    }

    /// Many players' lines are read in queries of a fixed size; more than a quarter of the
    /// board changed at once reads it whole.
    @Test(arguments: StoreKind.tested) func aBurstOfFindsIsReadInChunksOrWhole(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        var players: [Player] = []
        for i in 0..<(StandingLine.perQuery * 5) { players.append(try await store.player("Walker \(i)")) }
        let book = LeaderboardBook(store: store, hunt: testHunt.id)
        _ = try await book.standings()
        let some = StandingLine.perQuery + 7   // two queries, the second padded
        for player in players.prefix(some) { _ = try await store.found(player, "A1") }
        #expect(try await book.standings() == (try await store.leaderboard(hunt: testHunt.id)))
        #expect(await book.lastRefresh == .players(some))
        for player in players.suffix(players.count / 2) { _ = try await store.found(player, "B1") }
        #expect(try await book.standings() == (try await store.leaderboard(hunt: testHunt.id)))
        #expect(await book.lastRefresh == .whole)
    }
}
