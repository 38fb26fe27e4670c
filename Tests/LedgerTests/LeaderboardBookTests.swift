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
        for index in 0..<250 {
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
        #expect(refreshes["players", default: 0] > 40, "\(refreshes)")
        #expect(refreshes["none", default: 0] > 20, "\(refreshes)")
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

    /// The seeded script answers no question and sends no photo: the points those win are
    /// read for their player here.
    @Test(arguments: StoreKind.tested) func pointsFromQuestionsAndPhotosAreReadForTheirPlayer(_ kind: StoreKind) async throws {
        var hunt = testHunt
        hunt.caches[0].challenge = Challenge(kind: .question(prompt: "Colour?", answers: ["red"], choices: ["red", "blue"]),
                                             points: 8, penalty: 2)
        hunt.caches[1].challenge = Challenge(kind: .photo(task: "The bridge's lamp"), points: 7)
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada"), bob = try await store.player("Bob")
        try await store.found(ada, hunt.caches[0].id)
        try await store.found(ada, hunt.caches[1].id)
        try await store.found(bob, hunt.caches[0].id, minutes: 5)
        let book = LeaderboardBook(store: store, hunt: hunt.id)
        _ = try await book.standings()

        _ = try await store.answerChallenge(cache: hunt.caches[0].id, correct: false, by: bob.id, answerID: nil, answeredAt: nil,
                                            in: hunt, at: t0.addingTimeInterval(600))
        #expect(try await book.standings() == (try await store.leaderboard(hunt: hunt.id)))
        #expect(await book.lastRefresh == .players(1))
        _ = try await store.answerChallenge(cache: hunt.caches[0].id, correct: true, by: ada.id, answerID: nil, answeredAt: nil,
                                            in: hunt, at: t0.addingTimeInterval(600))
        #expect(try await book.standings() == (try await store.leaderboard(hunt: hunt.id)))
        #expect(await book.lastRefresh == .players(1))

        let photo = try await store.submitPhoto(cache: hunt.caches[1].id, photoSHA256: String(repeating: "ab", count: 32),
                                                by: ada.id, in: hunt, at: t0.addingTimeInterval(700))
        _ = try await book.standings()
        #expect(await book.lastRefresh == .none)
        let before = try #require(try await book.standings().first { $0.player == ada.id }).points
        _ = try await store.judgePhoto(photo.id, approve: true, reason: "", in: hunt, by: "GM", at: t0.addingTimeInterval(800))
        let after = try await book.standings()
        #expect(await book.lastRefresh == .players(1))
        #expect(after.first { $0.player == ada.id }?.points == before + 7)
        #expect(after == (try await store.leaderboard(hunt: hunt.id)))
    }

    /// Many players' lines are read in queries of a fixed size (here 8, 100 when served); more
    /// than a quarter of the board changed at once reads it whole.
    @Test(arguments: StoreKind.tested) func aBurstOfFindsIsReadInChunksOrWhole(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        var players: [Player] = []
        for i in 0..<48 { players.append(try await store.player("Walker \(i)")) }
        let book = LeaderboardBook(store: store, hunt: testHunt.id, perQuery: 8)
        _ = try await book.standings()
        for player in players.prefix(11) { _ = try await store.found(player, "A1") }   // two queries, the second padded
        #expect(try await book.standings() == (try await store.leaderboard(hunt: testHunt.id)))
        #expect(await book.lastRefresh == .players(11))
        for player in players.suffix(13) { _ = try await store.found(player, "B1") }   // past 48 / 4
        #expect(try await book.standings() == (try await store.leaderboard(hunt: testHunt.id)))
        #expect(await book.lastRefresh == .whole)
    }
}
