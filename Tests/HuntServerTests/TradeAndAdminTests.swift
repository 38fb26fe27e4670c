import Foundation
import GeoQR
import HTTPTypes
import HuntServer
import Testing

@Suite("Trades, reports and the game master")
struct TradeAndAdminTests {
    /// Ada holds A1's card, Bo holds B1's.
    func twoCollectors(_ client: some TestClientProtocol, _ h: Harness) async throws
        -> (ada: (token: String, id: String), bo: (token: String, id: String), a1Card: String, b1Card: String) {
        let ada = try await client.join("Ada"), bo = try await client.join("Bo")
        _ = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)
        _ = try await client.claim(h.code("B1"), token: bo.token, at: Harness.b1)
        let a1 = try #require((try await client.call(.get, "/api/me/collection", token: ada.token)["cards"] as? [[String: Any]])?.first?["id"] as? String)
        let b1 = try #require((try await client.call(.get, "/api/me/collection", token: bo.token)["cards"] as? [[String: Any]])?.first?["id"] as? String)
        return (ada, bo, a1, b1)
    }

    @Test func offerAcceptAndEveryRefusal() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let (ada, bo, a1, b1) = try await twoCollectors(client, h)
            let cy = try await client.join("Cy")
            let items = try await client.call(.get, "/api/players/\(bo.id)/items", token: ada.token)
            #expect(items.text.contains(b1) && !items.text.contains("Books are B1"))
            #expect(try await client.call(.get, "/api/players/\(bo.id)/items").status == .unauthorized)
            let offer = try await client.call(.post, "/api/trades", token: ada.token, json: ["to": "Bo", "give": [a1], "receive": [b1]])
            #expect(offer.status == .created)
            let id = try #require(offer["id"] as? String)
            // Only the recipient answers; a third player is not told the trade exists.
            #expect(try await client.call(.post, "/api/trades/\(id)/accept", token: cy.token).status == .notFound)
            #expect(try await client.call(.post, "/api/trades/\(id)/accept", token: ada.token).status == .forbidden)
            #expect(try await client.call(.post, "/api/trades/\(id)/cancel", token: bo.token).status == .forbidden)
            #expect(try await client.call(.post, "/api/trades/T999/accept", token: bo.token).status == .notFound)
            let incoming = try await client.call(.get, "/api/trades", token: bo.token)
            #expect((incoming["incoming"] as? [[String: Any]])?.first?["id"] as? String == id)
            let accepted = try await client.call(.post, "/api/trades/\(id)/accept", token: bo.token)
            #expect(accepted["state"] as? String == "accepted")
            #expect(try await client.call(.get, "/api/me/collection", token: bo.token).text.contains("Welcome to A1"))
            #expect(try await client.call(.post, "/api/trades/\(id)/decline", token: bo.token).status == .conflict)
            // Items that are not yours, or nobody's.
            let stale = try await client.call(.post, "/api/trades", token: ada.token, json: ["to": bo.id, "give": [a1]])
            #expect(stale.status == .forbidden || stale.status == .conflict)
            #expect(try await client.call(.post, "/api/trades", token: ada.token, json: ["to": "Nobody", "give": [b1]]).status == .notFound)
            #expect(try await client.call(.post, "/api/trades", token: ada.token, json: ["to": ada.id, "give": [b1]]).status == .unprocessableContent)
            #expect(try await client.call(.get, "/api/trades").status == .unauthorized)
        }
    }

    @Test func declineAndCancel() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let (ada, bo, a1, _) = try await twoCollectors(client, h)
            let one = try #require(try await client.call(.post, "/api/trades", token: ada.token, json: ["to": bo.id, "give": [a1]])["id"] as? String)
            #expect(try await client.call(.post, "/api/trades/\(one)/decline", token: bo.token)["state"] as? String == "declined")
            let two = try #require(try await client.call(.post, "/api/trades", token: ada.token, json: ["to": bo.id, "give": [a1]])["id"] as? String)
            #expect(try await client.call(.post, "/api/trades/\(two)/cancel", token: ada.token)["state"] as? String == "cancelled")
        }
    }

    @Test func adminEndpointsNeedTheAdminToken() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            let routes: [(HTTPRequest.Method, String)] = [
                (.get, "/api/admin/overview"), (.post, "/api/admin/hunt/stop"), (.post, "/api/admin/hunt/start"),
                (.post, "/api/admin/caches/A1/disable"), (.post, "/api/admin/finds/F1/void"),
                (.post, "/api/admin/reports/R1/resolve"), (.post, "/api/admin/broadcast"), (.get, "/api/admin/ledger"),
                (.post, "/api/admin/trackables"), (.post, "/api/admin/players/P1/pin"),
            ]
            for (method, path) in routes {
                #expect(try await client.call(method, path, json: [:]).status == .unauthorized, "\(path)")
                #expect(try await client.call(method, path, token: ada.token, json: [:]).status == .forbidden, "\(path)")
            }
        }
    }

    @Test func gameMasterActs() async throws {
        let h = try Harness()
        let admin = Harness.adminToken
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            let find = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)
            let findID = try #require(find["find"] as? String)
            // Stop: claims and trades refused; start again.
            #expect(try await client.call(.post, "/api/admin/hunt/stop", token: admin).status == .ok)
            #expect(try await client.claim(h.code("B1"), token: ada.token, at: Harness.b1).error == "hunt-stopped")
            #expect(try await client.call(.post, "/api/admin/hunt/start", token: admin).status == .ok)
            // A disabled cache is kept as an attempt.
            #expect(try await client.call(.post, "/api/admin/caches/B1/disable", token: admin, json: ["reason": "flooded"]).status == .ok)
            #expect(try await client.claim(h.code("B1"), token: ada.token, at: Harness.b1)["verdict"] as? String == "cache-disabled")
            #expect(try await client.call(.post, "/api/admin/caches/ZZ/disable", token: admin, json: [:]).status == .notFound)
            // Reports: filed by a player, flagged on the cache, resolved by the game master.
            let report = try await client.call(.post, "/api/reports", token: ada.token, json: ["cache": "A1", "kind": "damaged", "text": "wet"])
            #expect(report.status == .created)
            #expect(try await client.call(.post, "/api/reports", token: ada.token, json: ["cache": "A1", "kind": "lost"]).error == "bad-kind")
            #expect(try await client.call(.post, "/api/reports", json: ["cache": "A1", "kind": "damaged"]).status == .unauthorized)
            let flagged = try await client.call(.get, "/api/caches")
            #expect((flagged["caches"] as? [[String: Any]])?.first { $0["id"] as? String == "A1" }?["flagged"] as? Bool == true)
            let reportID = try #require(report["id"] as? String)
            #expect(try await client.call(.post, "/api/admin/reports/\(reportID)/resolve", token: admin, json: ["resolution": "dried"]).status == .ok)
            #expect(try await client.call(.post, "/api/admin/reports/\(reportID)/resolve", token: admin, json: ["resolution": "x"]).status == .conflict)
            // Void a find; broadcast; seed a trackable; export the ledger.
            #expect(try await client.call(.post, "/api/admin/finds/\(findID)/void", token: admin, json: ["reason": "test"]).status == .ok)
            #expect(try await client.call(.post, "/api/admin/finds/\(findID)/void", token: admin, json: ["reason": "again"]).status == .conflict)
            #expect(try await client.call(.post, "/api/admin/broadcast", token: admin, json: ["message": "Lunch!"]).status == .ok)
            #expect(try await client.call(.post, "/api/admin/broadcast", token: admin, json: ["message": " "]).status == .unprocessableContent)
            #expect(try await client.call(.post, "/api/admin/trackables", token: admin, json: ["name": "Bug", "cache": "A1"]).status == .created)
            let ledger = try await client.call(.get, "/api/admin/ledger", token: admin)
            #expect(ledger.status == .ok && ledger.text.contains("find-voided") && !ledger.text.contains(Harness.adminToken))
            let overview = try await client.call(.get, "/api/admin/overview", token: admin)
            #expect(overview["running"] as? Bool == true && (overview["disabled"] as? [String]) == ["B1"])
            // A PIN reset: Ada's session ends, the new PIN signs in, the old one does not.
            #expect(try await client.call(.post, "/api/admin/players/\(ada.id)/pin", token: admin, json: ["pin": "12"]).status == .unprocessableContent)
            #expect(try await client.call(.post, "/api/admin/players/P99/pin", token: admin, json: ["pin": "2468"]).status == .notFound)
            #expect(try await client.call(.post, "/api/admin/players/ada/pin", token: admin, json: ["pin": "2468"]).status == .ok)
            #expect(try await client.call(.get, "/api/me", token: ada.token).error == "bad-token", "the old session ended")
            #expect(try await client.call(.post, "/api/signin", json: ["name": "Ada", "pin": "2468"]).status == .ok)
            #expect(try await client.call(.post, "/api/signin", json: ["name": "Ada", "pin": "4321"]).error == "wrong-pin")
            #expect(!(try await client.call(.get, "/api/admin/ledger", token: admin).text.contains("$2b$")), "no PIN hash in the export")
        }
    }
}
