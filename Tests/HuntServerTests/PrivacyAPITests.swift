import Foundation
import GeoQR
import Hummingbird
@testable import HuntServer
import Ledger
import Testing

/// Issue 26 §6 over HTTP: the hunt tells the phone how long positions are kept, the control
/// room forgets a player who asks, and an ended hunt's kept positions go.
@Suite("Privacy over HTTP")
struct PrivacyAPITests {
    func position(_ client: some TestClientProtocol, _ token: String) async throws {
        _ = try await client.call(.post, "/api/me/position", token: token,
                                  json: ["latitude": Harness.b1.latitude, "longitude": Harness.b1.longitude, "accuracy": 10])
    }

    func positions(_ client: some TestClientProtocol) async throws -> Int? {
        (try await client.call(.get, "/api/admin/overview", token: Harness.adminToken)["positions"] as? [[String: Any]])?.count
    }

    @Test func theControlRoomForgetsAPlayerWhoAsks() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            #expect(try await client.call(.get, "/api/hunt")["positionRetentionHours"] as? Double == 72)
            let ada = try await client.join("Zebulon")
            let find = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)
            #expect(find["outcome"] as? String == "found", "\(find.text)")
            try await position(client, ada.token)
            #expect(try await positions(client) == 1)

            let byPlayer = try await client.call(.post, "/api/admin/players/\(ada.id)/forget", token: ada.token)
            #expect(byPlayer.status == .forbidden, "only the game master forgets")
            let forgotten = try await client.call(.post, "/api/admin/players/\(ada.id)/forget", token: Harness.adminToken)
            #expect(forgotten.status == .ok && forgotten["pseudonym"] as? String == "Forgotten player 1"
                    && forgotten["alreadyForgotten"] as? Bool == false, "\(forgotten.text)")
            #expect(try await positions(client) == 0, "the control room's map forgot where they were")
            #expect(try await client.call(.get, "/api/me", token: ada.token).status == .unauthorized, "their session ended")
            let board = try await client.call(.get, "/api/leaderboard")
            #expect(board.text.contains("Forgotten player 1") && !board.text.contains("Zebulon"), "\(board.text)")
            let again = try await client.call(.post, "/api/admin/players/\(ada.id)/forget", token: Harness.adminToken)
            #expect(again.status == .ok && again["alreadyForgotten"] as? Bool == true)
            let signIn = try await client.call(.post, "/api/signin", json: ["name": "Zebulon", "pin": "4321"])
            #expect(signIn.status.code >= 400, "\(signIn.text)")
        }
        #expect(try await h.session.store.verify().isIntact)
    }

    @Test func anEndedHuntKeepsNoPositionInMemory() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            try await position(client, ada.token)
            let watch = PositionRetentionWatch(session: h.session)
            await watch.look()
            #expect(try await positions(client) == 1, "a running hunt keeps the control room's map")
            #expect(try await client.call(.post, "/api/admin/hunt/stop", token: Harness.adminToken).status == .ok)
            try await position(client, ada.token)
            await watch.look()
            #expect(try await positions(client) == 0)
        }
    }

    @Test func theServerDropsTheLedgersPositionsOnceTheRetentionHasPassed() async throws {
        let directory = NSTemporaryDirectory() + "geoqr-server-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var hunt = Harness.hunt
        hunt.positionRetentionHours = 0
        let store = try SQLiteGameStore(directory: directory, configuration: .init(pinCost: 4, synchronousFull: false))
        let secret = HuntSecret.random()
        let session = ServedHunt(hunt: hunt, secret: secret, store: store, admin: AdminToken(value: Harness.adminToken),
                                 options: .init(), limiter: RateLimiter(rules: [:]))
        try await Application(router: HuntRouter.build(session: session)).test(.live) { client in
            let ada = try await client.join("Ada")
            let code = CacheCode.payload(hunt: "TEST", cache: "A1", secret: secret)
            #expect(try await client.claim(code, token: ada.token, at: Harness.a1)["outcome"] as? String == "found")
            let watch = PositionRetentionWatch(session: session)
            await watch.look()
            #expect(try await store.finds(hunt: "TEST", player: nil).first?.location != nil, "the hunt runs: positions stay")
            #expect(try await client.call(.post, "/api/admin/hunt/stop", token: Harness.adminToken).status == .ok)
            await watch.look()
            #expect(try await store.finds(hunt: "TEST", player: nil).first?.location == nil)
            #expect(try await store.events(after: 0, limit: 100).last?.kind == "positions-dropped")
        }
        #expect(try await store.verify().isIntact)
    }
}
