import Foundation
import GeoQR
import HTTPTypes
@testable import HuntServer
import Ledger
import Testing

/// What the load, soak and crash scripts (Benchmarks/soak.sh, crash-loop.sh) found, kept.
@Suite("Under load, after a crash, on a full disk")
struct LoadFixesTests {
    @Test func aFullLedgerIs507AndALockedOne503() {
        #expect(APIError.from(LedgerError.full("x")).status.code == 507)
        #expect(APIError.from(LedgerError.full("x")).code == "storage-full")
        #expect(APIError.from(LedgerError.locked("x")).status == .serviceUnavailable)
    }

    /// A burst of changes costs one leaderboard send at once and one trailing send, not one
    /// per change.
    @Test func leaderboardNewsCoalescesABurst() async throws {
        let sends = Counter()
        // An interval the burst takes far less than, even beside every other suite (with 200 ms
        // the trailing send sometimes came in the middle of the burst, and a third after it).
        let news = LeaderboardNews(interval: .seconds(3)) { await sends.add(); return 1 }
        let burst = ContinuousClock.now
        for _ in 0..<500 { await news.changed() }
        let burstTook = ContinuousClock.now - burst
        #expect(await sends.value == 1)
        // The trailing send comes after the interval; on a busy machine perhaps much after.
        let deadline = ContinuousClock.now + .seconds(20)
        while await sends.value < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(await sends.value == 2)
        try await Task.sleep(for: .milliseconds(3_200))
        #expect(await sends.value == 2, "the burst (\(burstTook)) cost two sends, no more")
        await news.changed()   // a change long after the last send: sent at once
        #expect(await sends.value == 3)
    }

    /// The sends are spaced by the streams the last one reached: a second for each 5,000, never
    /// closer than the interval given.
    @Test func leaderboardNewsSpacesSendsByTheirListeners() async throws {
        #expect(LeaderboardNews.spacing(after: 0, atLeast: .seconds(1)) == .seconds(1))
        #expect(LeaderboardNews.spacing(after: 4_000, atLeast: .seconds(1)) == .seconds(1))
        #expect(LeaderboardNews.spacing(after: 10_000, atLeast: .seconds(1)) == .seconds(2))
        #expect(LeaderboardNews.spacing(after: 20_000, atLeast: .milliseconds(100)) == .seconds(4))
        // When each send happened, not how many there were by some time: a busy machine
        // (the ASan suites side by side) can sleep 300 ms for seconds.
        let sends = SendTimes()
        let news = LeaderboardNews(interval: .milliseconds(100)) { await sends.add(); return 15_000 }
        await news.changed()
        try await Task.sleep(for: .milliseconds(300))
        await news.changed()   // past the 100 ms given, within the 3 s the 15,000 listeners ask
        let deadline = ContinuousClock.now + .seconds(20)
        while await sends.times.count < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        let times = await sends.times
        try #require(times.count == 2)
        #expect(times[1] - times[0] >= .seconds(3), "the trailing send came \(times[1] - times[0]) after the first")
    }

    /// The trade list reads only the player's own trades, also those made after the first list.
    @Test func tradeListFollowsNewTrades() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada"), bo = try await client.join("Bo"), cy = try await client.join("Cy")
            _ = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)
            _ = try await client.claim(h.code("B1"), token: ada.token, at: Harness.b1)
            let cards = try #require(try await client.call(.get, "/api/me/collection", token: ada.token)["cards"] as? [[String: Any]])
            let ids = cards.compactMap { $0["id"] as? String }
            #expect(ids.count == 2)
            _ = try await client.call(.post, "/api/trades", token: ada.token, json: ["to": "Bo", "give": [ids[0]]])
            #expect((try await client.call(.get, "/api/trades", token: bo.token)["incoming"] as? [Any])?.count == 1)
            _ = try await client.call(.post, "/api/trades", token: ada.token, json: ["to": "Cy", "give": [ids[1]]])
            #expect((try await client.call(.get, "/api/trades", token: bo.token)["incoming"] as? [Any])?.count == 1)
            #expect((try await client.call(.get, "/api/trades", token: cy.token)["incoming"] as? [Any])?.count == 1)
            #expect((try await client.call(.get, "/api/trades", token: ada.token)["outgoing"] as? [Any])?.count == 2)
        }
    }
}

actor SendTimes {
    private(set) var times: [ContinuousClock.Instant] = []
    func add() { times.append(.now) }
}

actor Counter {
    private(set) var value = 0
    func add() { value += 1 }
}

/// A port another program holds is one line naming it, not NIO's bind error.
@Suite("Starting the server")
struct ServerStartTests {
    @Test func aPortInUseIsNamed() async throws {
        let h = try Harness()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { a in
                guard bind(fd, a, length) == 0, listen(fd, 1) == 0, getsockname(fd, a, &length) == 0 else {
                    throw TestFailure("could not hold a port: errno \(errno)")
                }
            }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        do {
            try await HuntServer(session: h.session, listeners: [.init(host: "127.0.0.1", port: port)]).run()
            Issue.record("the server started on a port already held")
        } catch let error as HuntServerError {
            #expect(error.description.hasPrefix("port \(port) is already in use"))
        }
    }
}
