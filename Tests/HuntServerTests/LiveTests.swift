import Foundation
import GeoQR
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import HuntServer
import NIOCore
import NIOSSL
import Logging
import ServiceLifecycle
import Testing

@Suite("Server-sent events, TLS and addresses")
struct LiveTests {
    /// Over a real socket: Bo's stream opens with the standings' top and his rank, then hears
    /// Ada's find, the new standings and his new rank (Ada ahead of him), a broadcast and his
    /// own proximity news (once), and ends at shutdown.
    @Test func streamCarriesFindsLeaderboardBroadcastAndProximityOnce() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada"), bo = try await client.join("Bo")
            // Its own connection: one HTTP/1.1 connection carries one response at a time.
            let port = try #require(client.port)
            let stream = Task {
                try await TestClient.withClient(host: "localhost", port: port, configuration: .init(timeout: .seconds(30))) { c in
                    String(buffer: try await c.get("/api/live?token=\(bo.token)").body)
                }
            }
            try await waitForListeners(h, 1)
            _ = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)
            let near = Harness.north(of: Harness.b1, metres: 30)
            for _ in 0..<2 {
                _ = try await client.call(.post, "/api/me/position", token: bo.token,
                                          json: ["latitude": near.latitude, "longitude": near.longitude, "accuracy": 10])
            }
            _ = try await client.call(.post, "/api/admin/broadcast", token: Harness.adminToken, json: ["message": "Lunch at noon"])
            // Longer than the coalescing of standings (100 ms here) and wakes, and than a round of
            // the lanes (the digest of finds comes at the stream's lane's turn), with room for a
            // loaded machine (ASan).
            try await Task.sleep(for: h.session.live.findsInterval * 3)
            await h.session.live.closeAll()
            let text = try await stream.value
            #expect(text.hasPrefix("retry: 3000\n\nevent: standings\ndata: {\"top\":[{\"rank\":1,\"player\":"))
            #expect(text.contains("event: finds\ndata: {\"count\":1,\"finds\":[{\"cache\":\"A1\""), "Ada's find, in a digest")
            #expect(!text.contains("event: find\n"), "others' finds are not ledger news to Bo")
            #expect(text.components(separatedBy: "event: standings").count >= 3, "\(text)")
            #expect(text.contains("event: rank\ndata: {\"rank\":2,\"points\":0,\"finds\":0,\"players\":2,\"ahead\":{\"name\":\"Ada\",\"points\":"))
            #expect(!text.contains("event: leaderboard"), "the whole leaderboard is not pushed")
            #expect(text.contains("Lunch at noon"))
            #expect(text.components(separatedBy: "event: proximity").count == 2)
            #expect(!text.contains("Welcome to A1"))
        }
    }

    /// HTTPS with the self-signed certificate, end to end.
    @Test func servesHTTPSWithTheSelfSignedCertificate() async throws {
        let h = try Harness()
        let made = try SelfSignedCertificate.loadOrMake(directory: h.directory, for: NetworkAddresses(names: ["localhost"], lanIPv4: []))
        let tls = try SelfSignedCertificate.serverConfiguration(certificate: made.certificatePath, key: made.keyPath)
        let (ports, bound) = AsyncStream<Int>.makeStream()
        let app = Application(router: HuntRouter.build(session: h.session), server: try .tls(.http1(), tlsConfiguration: tls),
                              configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { bound.yield($0.localAddress?.port ?? 0) })
        let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "test")))
        let server = Task { try await group.run() }
        var trust = TLSConfiguration.makeClientConfiguration()
        // BoringSSL takes no CA:FALSE leaf as a trust anchor; phones are asked to accept it
        // instead. The names it covers are checked in the certificate test.
        trust.certificateVerification = .none
        let port = try #require(await ports.first { _ in true })
        let hunt = try await TestClient.withClient(host: "127.0.0.1", port: port,
                                                   configuration: .init(tlsConfiguration: trust, serverName: "localhost")) { c in
            try await c.get("/api/hunt")
        }
        await group.triggerGracefulShutdown()
        try await server.value
        #expect(hunt.status == .ok && String(buffer: hunt.body).contains("\"id\":\"TEST\""))
    }

    @Test func streamNeedsAToken() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let none = try await client.call(.get, "/api/live")
            let bad = try await client.call(.get, "/api/live?token=abc")
            #expect(none.status == .unauthorized && bad.error == "bad-token")
        }
    }

    func waitForListeners(_ h: Harness, _ n: Int) async throws {
        for _ in 0..<100 where await h.session.live.listenerCount < n {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @Test func selfSignedCertificateIsKeptAndReusedAndCoversTheAddresses() throws {
        let dir = NSTemporaryDirectory() + "geoqr-tls-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let here = NetworkAddresses(names: ["localhost", "hunt.local"], lanIPv4: ["192.168.1.20"])
        let first = try SelfSignedCertificate.loadOrMake(directory: dir, for: here)
        let again = try SelfSignedCertificate.loadOrMake(directory: dir, for: here)
        #expect(first.fingerprint == again.fingerprint)
        let keyMode = try FileManager.default.attributesOfItem(atPath: first.keyPath)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        _ = try SelfSignedCertificate.serverConfiguration(certificate: first.certificatePath, key: first.keyPath)
        let moved = try SelfSignedCertificate.loadOrMake(directory: dir, for: NetworkAddresses(names: ["localhost"], lanIPv4: ["10.0.0.7"]))
        #expect(moved.fingerprint != first.fingerprint)
    }

    @Test func adminTokenIsMadeOnceAndPrivate() throws {
        let dir = NSTemporaryDirectory() + "geoqr-admin-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let token = try AdminToken.load(directory: dir, hunt: "test")
        #expect(try AdminToken.load(directory: dir, hunt: "TEST").value == token.value)
        #expect(token.value.count == 32 && token.matches(token.value) && !token.matches("x"))
        let mode = try FileManager.default.attributesOfItem(atPath: dir + "/server/TEST.admin")[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
