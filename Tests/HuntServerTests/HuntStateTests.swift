import Foundation
import GeoQR
import HTTPTypes
import Hummingbird
import HuntServer
import Ledger
import Testing

/// Start and stop are game-master events in the ledger: a restarted server still knows.
@Suite("Hunt start and stop in the ledger")
struct HuntStateTests {
    /// A server over the ledger in `directory`, as `geoqr serve` builds one on each start.
    func server(_ directory: String, secret: HuntSecret) throws -> (session: ServedHunt, app: some ApplicationProtocol) {
        let store = try SQLiteGameStore(directory: directory, configuration: .init(pinCost: 4, synchronousFull: false))
        let session = ServedHunt(hunt: Harness.hunt, secret: secret, store: store,
                                  admin: AdminToken(value: Harness.adminToken),
                                  options: .init(), limiter: RateLimiter(rules: [:]))
        return (session, Application(router: HuntRouter.build(session: session)))
    }

    /// What the hunt endpoint says of `running`.
    func running(_ client: some TestClientProtocol) async throws -> Bool? {
        try await client.call(.get, "/api/hunt")["running"] as? Bool
    }

    @Test func aStoppedHuntStaysStoppedAfterARestartAndTheLedgerVerifies() async throws {
        let directory = NSTemporaryDirectory() + "geoqr-server-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let secret = HuntSecret.random()
        let a1 = CacheCode.payload(hunt: "TEST", cache: "A1", secret: secret)
        let admin = Harness.adminToken

        let first = try server(directory, secret: secret)
        try await first.app.test(.live) { client in
            let before = try await running(client)
            #expect(before == true)
            #expect(try await client.call(.post, "/api/admin/hunt/stop", token: admin).status == .ok)
            #expect(try await running(client) == false)
        }

        let second = try server(directory, secret: secret)
        try await second.app.test(.live) { client in
            #expect(try await running(client) == false, "the stop outlived the server")
            let overview = try await client.call(.get, "/api/admin/overview", token: admin)
            #expect(overview["running"] as? Bool == false)
            let ada = try await client.join("Ada")
            let stopped = try await client.claim(a1, token: ada.token, at: Harness.a1)
            #expect(stopped.error == "hunt-stopped" && stopped["retry"] as? Bool == true, "a phone keeps the claim for later")
            #expect(try await client.call(.post, "/api/admin/hunt/start", token: admin).status == .ok)
            #expect(try await client.call(.post, "/api/admin/hunt/start", token: admin).status == .ok)
            let find = try await client.claim(a1, token: ada.token, at: Harness.a1)
            #expect(find.status == .ok && find["outcome"] as? String == "found", "\(find.text)")
            let forged = try await client.claim(a1 + "X", token: ada.token, at: Harness.a1)
            #expect(forged.status == .ok && forged["refused"] as? Bool == true && forged["offerTypedCode"] as? Bool == true)
            let unknown = try await client.call(.post, "/api/caches/Z9/hint", token: ada.token)
            #expect(unknown.status.code >= 400 && unknown["retry"] as? Bool == false, "a refusal is not retried: \(unknown.text)")
            // Claimed from exactly A1's coordinates: the overview flags it, by the domain's rule.
            let after = try await client.call(.get, "/api/admin/overview", token: admin)
            let flags = try #require(after["flags"] as? [[String: Any]])
            #expect(flags.map { $0["kind"] as? String } == ["exact-coordinates"])
            #expect(flags.first?["find"] as? String == find["find"] as? String)
        }

        let kinds = try await second.session.store.events(after: 0, limit: 100).map(\.kind)
        #expect(kinds.filter { $0.hasPrefix("hunt-") } == ["hunt-stopped", "hunt-started"], "a second start records nothing")
        #expect(try await second.session.store.huntRunning(hunt: "TEST"))
        #expect(try await second.session.store.verify().isIntact)
    }
}
