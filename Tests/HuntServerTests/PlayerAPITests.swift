import Foundation
import HTTPTypes
import HuntServer
import Testing

@Suite("Joining, signing in and the caches")
struct PlayerAPITests {
    @Test func joinSignInAndRefusals() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            #expect(ada.token.count == 32)
            #expect(try await client.call(.post, "/api/join", json: ["name": "ADA", "pin": "9999"]).error == "name-taken")
            #expect(try await client.call(.post, "/api/join", json: ["name": "Bo", "pin": "12"]).status == .unprocessableContent)
            #expect(try await client.call(.post, "/api/join", json: ["name": "Bo"]).error == "bad-json")
            let wrong = try await client.call(.post, "/api/signin", json: ["name": "Ada", "pin": "0000"])
            #expect(wrong.status == .unauthorized && wrong.error == "wrong-pin")
            #expect(try await client.call(.post, "/api/signin", json: ["name": "Nobody", "pin": "0000"]).status == .notFound)
            let again = try await client.call(.post, "/api/signin", json: ["name": "ada", "pin": "4321"])
            #expect(again.status == .ok)
            let second = try #require(again["token"] as? String)
            #expect(second != ada.token)
            // Both sessions work; the reply never carries a PIN or its hash.
            let me = try await client.call(.get, "/api/me", token: second)
            #expect(me.status == .ok && !me.text.contains("pin") && !me.text.contains("$2"))
            #expect(try await client.call(.get, "/api/me").error == "no-token")
            #expect(try await client.call(.get, "/api/me", token: String(repeating: "a", count: 32)).error == "bad-token")
            #expect(try await client.call(.get, "/api/me/finds").status == .unauthorized)
            #expect(try await client.call(.get, "/api/me/collection").status == .unauthorized)
            #expect(try await client.call(.get, "/api/me/trackables").status == .unauthorized)
        }
    }

    @Test func cachesArePublicFieldsOnlyAndSortedByDistance() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let here = Harness.b1
            let reply = try await client.call(.get, "/api/caches?latitude=\(here.latitude)&longitude=\(here.longitude)")
            let caches = try #require(reply["caches"] as? [[String: Any]])
            #expect(caches.map { $0["id"] as? String } == ["B1", "A1"])
            #expect((caches[1]["distanceM"] as? Double ?? 0) > 200)
            #expect(caches[1]["direction"] as? String == "south-east")
            #expect(!reply.text.contains("Welcome to A1") && !reply.text.contains("GQ1"))
            #expect(try await client.call(.get, "/api/caches?latitude=abc&longitude=1").error == "bad-query")
            #expect(try await client.call(.get, "/api/caches?latitude=1").error == "bad-location")
            let hunt = try await client.call(.get, "/api/hunt")
            #expect(hunt["id"] as? String == "TEST" && hunt["running"] as? Bool == true)
            #expect(try await client.call(.get, "/api/players").status == .ok)
            #expect(try await client.call(.get, "/api/openapi.yaml").text.hasPrefix("openapi: 3.1"))
        }
        let hidden = try Harness(showCoordinates: false)
        try await hidden.app.test(.live) { client in
            let reply = try await client.call(.get, "/api/caches?latitude=40.63&longitude=-8.65")
            let first = try #require((reply["caches"] as? [[String: Any]])?.first)
            #expect(first["latitude"] == nil && first["distanceM"] != nil)
        }
    }

    @Test func rateLimitsJoins() async throws {
        let h = try Harness(limits: [.join: .init(burst: 2, perSecond: 0.001)])
        try await h.app.test(.live) { client in
            _ = try await client.join("One")
            _ = try await client.join("Two")
            let third = try await client.call(.post, "/api/join", json: ["name": "Three", "pin": "4321"])
            #expect(third.status == .tooManyRequests && third.error == "rate-limited")
            #expect(third.headers[.retryAfter] != nil)
        }
    }

    @Test func staticFilesStayInsideTheWebFolderWithSecurityHeaders() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let index = try await client.call(.get, "/")
            #expect(index.status == .ok && index.text.contains("data-i18n=\"app.join.title\""))
            #expect(index.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            #expect(index.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(try await client.call(.get, "/../Package.swift").status != .ok)
            #expect(try await client.call(.get, "/%2e%2e/openapi.yaml").status != .ok)
            let code = h.code("A1")
            for prefix in ["/C/", "/c/"] {
                let page = try await client.call(.get, prefix + code)
                #expect(page.status == .ok && page.text.contains("claim.js") && !page.text.contains(code))
            }
        }
    }
}
