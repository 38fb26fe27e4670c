import Foundation
import GeoQR
import HTTPTypes
import HuntServer
import Testing

/// A hunt on a public server, over a real socket: who a request is from behind a reverse proxy,
/// PIN lockouts by address, the proxy's health check, codes typed by hand and claims a phone
/// kept while it had no network.
@Suite("Public server")
struct PublicServerTests {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    func wrongPINs(_ client: some TestClientProtocol, from addresses: [String]) async throws -> [String?] {
        var errors: [String?] = []
        for address in addresses {
            errors.append(try await client.call(.post, "/api/signin", json: ["name": "Ada", "pin": "0000"],
                                                headers: [Self.forwardedFor: address]).error)
        }
        return errors
    }

    @Test func theProxysForwardedClientIsWhoGuessesAndIsLockedOut() async throws {
        let h = try Harness { $0.trustedProxies = TrustedProxies(["127.0.0.1"]) }
        try await h.app.test(.live) { client in
            _ = try await client.join("Ada")
            let errors = try await wrongPINs(client, from: Array(repeating: "203.0.113.5, 198.51.100.9", count: 6))
            #expect(errors == ["wrong-pin", "wrong-pin", "wrong-pin", "wrong-pin", "locked-out", "locked-out"],
                    "the address the proxy heard from (the rightmost untrusted one) is locked out")
            let elsewhere = try await client.call(.post, "/api/signin", json: ["name": "Ada", "pin": "4321"],
                                                  headers: [Self.forwardedFor: "192.0.2.44"])
            #expect(elsewhere.status == .ok, "Ada herself, from her own address, still signs in: \(elsewhere.text)")
            let overHTTPS = try await client.call(.get, "/healthz", headers: [HTTPField.Name("X-Forwarded-Proto")!: "https"])
            #expect(overHTTPS.headers[HTTPField.Name("Strict-Transport-Security")!] == "max-age=86400")
            #expect(try await client.call(.get, "/healthz").headers[HTTPField.Name("Strict-Transport-Security")!] == nil)
        }
    }

    @Test func forwardingHeadersFromAnyoneButTheProxyAreIgnored() async throws {
        let h = try Harness { $0.trustedProxies = TrustedProxies(["10.9.9.9"]) }
        try await h.app.test(.live) { client in
            _ = try await client.join("Ada")
            let errors = try await wrongPINs(client, from: (1...5).map { "198.51.100.\($0)" })
            #expect(errors.last == "locked-out", "a forged X-Forwarded-For does not make five guessers of one: \(errors)")
            let health = try await client.call(.get, "/healthz", headers: [HTTPField.Name("X-Forwarded-Proto")!: "https"])
            #expect(health.headers[HTTPField.Name("Strict-Transport-Security")!] == nil, "nor from anyone else's word")
            #expect(health.status == .ok && health["status"] as? String == "ok" && health["hunt"] as? String == "TEST")
        }
    }

    @Test func aTypedCodeAndALateClaimThroughTheAPI() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            let typed = TypedCode.text(hunt: "TEST", cache: "A1", secret: h.secret)
            let found = try await client.call(.post, "/api/claims", token: ada.token, json: [
                "code": typed.lowercased(), "method": "typed", "latitude": Harness.a1.latitude, "longitude": Harness.a1.longitude,
            ])
            #expect(found.status == .ok && found["outcome"] as? String == "found", "\(found.text)")
            let bad = try await client.call(.post, "/api/claims", token: ada.token, json: ["code": "hello", "method": "typed"])
            #expect(bad.status == .unprocessableContent && bad.error == "bad-typed-code")

            let scanned = Date().addingTimeInterval(-600)
            let body: [String: Any] = ["code": h.code("B1"), "latitude": Harness.b1.latitude, "longitude": Harness.b1.longitude,
                                       "accuracy": 6, "claimId": "q-1", "scannedAt": ISO8601DateFormatter().string(from: scanned)]
            let late = try await client.call(.post, "/api/claims", token: ada.token, json: body)
            #expect(late.status == .ok && late["outcome"] as? String == "found", "\(late.text)")
            #expect((late["lateSeconds"] as? Int).map { (595...700).contains($0) } == true, "\(late.text)")
            let again = try await client.call(.post, "/api/claims", token: ada.token, json: body)
            #expect(again["find"] as? String == late["find"] as? String && again["outcome"] as? String == "found")
            #expect(try await h.session.store.finds(hunt: "TEST", player: ada.id).count == 2, "sent twice, found once")

            var stale = body
            stale["claimId"] = "q-2"
            stale["scannedAt"] = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3 * 3600))
            let refused = try await client.call(.post, "/api/claims", token: ada.token, json: stale)
            #expect(refused.status == .unprocessableContent && refused.error == "claim-too-late", "\(refused.text)")
            stale["scannedAt"] = "yesterday"
            #expect(try await client.call(.post, "/api/claims", token: ada.token, json: stale).error == "bad-scanned-at")
        }
    }

    @Test func aPhoneCheckReachesTheControlRoom() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            let check: [String: Any] = ["secure": true, "camera": true, "location": true, "offline": false, "wakeLock": true, "accuracy": 12]
            let kept = try await client.call(.post, "/api/me/readiness", token: ada.token, json: check)
            #expect(kept.status == .ok && kept["player"] as? String == ada.id && kept["offline"] as? Bool == false, "\(kept.text)")
            #expect(try await client.call(.post, "/api/me/readiness", json: check).status == .unauthorized)
            let overview = try await client.call(.get, "/api/admin/overview", token: Harness.adminToken)
            let readiness = try #require(overview["readiness"] as? [[String: Any]])
            #expect(readiness.count == 1 && readiness[0]["accuracyM"] as? Double == 12 && readiness[0]["camera"] as? Bool == true)
        }
    }
}
