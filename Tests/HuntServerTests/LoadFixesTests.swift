import Foundation
import GeoQR
import HTTPTypes
import HummingbirdTesting
@testable import HuntServer
import Ledger
import Testing

/// What the load, soak and crash scripts (Benchmarks/soak.sh, crash-loop.sh) found, kept.
@Suite("Under load, after a crash, on a full disk")
struct LoadFixesTests {
    /// Sessions are a log of lines: a kill in the middle of one leaves a torn last line,
    /// which loading skips, keeping every whole one.
    @Test func sessionsLogSkipsATornLastLine() async throws {
        let file = NSTemporaryDirectory() + "geoqr-sessions-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let tokens = PlayerTokens(file: file)
        let ada = try await tokens.issue(for: "P1"), bo = try await tokens.issue(for: "P2")
        let handle = try #require(FileHandle(forWritingAtPath: file))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("3f2a".utf8))   // torn: killed mid-line
        try handle.close()
        let reloaded = PlayerTokens(file: file)
        #expect(await reloaded.player(for: ada) == "P1")
        #expect(await reloaded.player(for: bo) == "P2")
        // The next line starts after the torn one and is kept too.
        let cy = try await reloaded.issue(for: "P3")
        #expect(await PlayerTokens(file: file).player(for: cy) == "P3")
    }

    /// A PIN reset ends every session of the player, and a restart does not bring them back;
    /// sessions issued after it are kept.
    @Test func revokedSessionsStayRevokedAfterARestart() async throws {
        let file = NSTemporaryDirectory() + "geoqr-sessions-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let tokens = PlayerTokens(file: file)
        let phone = try await tokens.issue(for: "P1"), laptop = try await tokens.issue(for: "P1")
        let bo = try await tokens.issue(for: "P2")
        try await tokens.revoke(player: "P1")
        #expect(await tokens.player(for: phone) == nil)
        #expect(await tokens.player(for: laptop) == nil)
        let again = try await tokens.issue(for: "P1")
        let reloaded = PlayerTokens(file: file)
        #expect(await reloaded.player(for: phone) == nil)
        #expect(await reloaded.player(for: laptop) == nil)
        #expect(await reloaded.player(for: again) == "P1")
        #expect(await reloaded.player(for: bo) == "P2")
    }

    /// A sessions file from before the log (one JSON object) is still read, and converted.
    @Test func sessionsFromTheEarlierJSONFileAreKept() async throws {
        let file = NSTemporaryDirectory() + "geoqr-sessions-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        let token = "0123456789abcdef0123456789abcdef"
        try JSONEncoder().encode([PlayerTokens.digest(token): "P9"]).write(to: URL(fileURLWithPath: file))
        #expect(await PlayerTokens(file: file).player(for: token) == "P9")
        #expect(await PlayerTokens(file: file).player(for: token) == "P9")
        #expect(!(try String(contentsOfFile: file, encoding: .utf8)).hasPrefix("{"))
    }

    /// A join whose session cannot be kept (the disk full, the folder gone) is refused with
    /// a JSON 507, not a token that a restart would forget.
    @Test func joinAnswers507WhenTheSessionCannotBeKept() async throws {
        let h = try Harness(sessionsFile: "/nonexistent-\(UUID().uuidString)/TEST.sessions")
        try await h.app.test(.router) { client in
            let reply = try await client.call(.post, "/api/join", json: ["name": "Ada", "pin": "4321"])
            #expect(reply.status.code == 507 && reply.error == "storage-full")
        }
    }

    @Test func aFullLedgerIs507AndALockedOne503() {
        #expect(APIError.from(LedgerError.full("x")).status.code == 507)
        #expect(APIError.from(LedgerError.full("x")).code == "storage-full")
        #expect(APIError.from(LedgerError.locked("x")).status == .serviceUnavailable)
    }

    /// A burst of changes costs one leaderboard send at once and one trailing send, not one
    /// per change.
    @Test func leaderboardNewsCoalescesABurst() async throws {
        let sends = Counter()
        let news = LeaderboardNews(interval: .milliseconds(200)) { await sends.add() }
        for _ in 0..<500 { await news.changed() }
        #expect(await sends.value == 1)
        // The trailing send comes after the interval; on a busy machine perhaps much after.
        let deadline = ContinuousClock.now + .seconds(10)
        while await sends.value < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(await sends.value == 2)
        try await Task.sleep(for: .milliseconds(500))
        #expect(await sends.value == 2, "the burst cost two sends, no more")
        await news.changed()   // a change long after the last send: sent at once
        #expect(await sends.value == 3)
    }

    /// The trade list reads only the player's own trades, also those made after the first list.
    @Test func tradeListFollowsNewTrades() async throws {
        let h = try Harness()
        try await h.app.test(.router) { client in
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
