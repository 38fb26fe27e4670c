import Foundation
import GeoQR
import HTTPTypes
import Hummingbird
import HuntServer
import NIOCore
import QRImaging
import Testing

@Suite("The game master's control room: live feed, positions, points, report photos")
struct ControlRoomFeedTests {
    /// Over a real socket: the control room's stream hears every claim as it is judged (a
    /// refused one too), each player's position, and joins; a player's stream hears none of it.
    @Test func controlRoomHearsClaimsPositionsAndJoinsThatPlayersDoNot() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            let port = try #require(client.port)
            func listen(_ uri: String, token: String?) -> Task<String, Error> {
                Task {
                    try await TestClient.withClient(host: "localhost", port: port, configuration: .init(timeout: .seconds(30))) { c in
                        var headers: HTTPFields = [:]
                        if let token { headers[.authorization] = "Bearer \(token)" }
                        return String(buffer: try await c.get(uri, headers: headers).body)
                    }
                }
            }
            let room = listen("/api/admin/live", token: Harness.adminToken)
            let phone = listen("/api/live?token=\(ada.token)", token: nil)
            for _ in 0..<100 where await h.session.live.listenerCount < 2 { try await Task.sleep(for: .milliseconds(20)) }
            _ = try await client.call(.post, "/api/me/position", token: ada.token,
                                      json: ["latitude": Harness.a1.latitude, "longitude": Harness.a1.longitude, "accuracy": 12])
            _ = try await client.claim(h.code("B1"), token: ada.token, at: Harness.a1)   // too far
            _ = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)   // a find
            _ = try await client.join("Bo")
            // The digest of finds reaches each stream at its lane's turn, within a round.
            try await Task.sleep(for: h.session.live.findsInterval * 3)
            await h.session.live.closeAll()
            let heard = try await room.value, told = try await phone.value
            #expect(heard.contains("event: position\ndata: ") && heard.contains("\"accuracyM\":12") && heard.contains("\"player\":\"\(ada.id)\""))
            #expect(heard.contains("\"verdict\":\"too-far\"") && heard.contains("\"verdict\":\"claimable\""))
            #expect(heard.contains("event: player\n") && heard.contains("\"name\":\"Bo\""))
            #expect(heard.contains("event: finds\n"), "the control room also hears the digest of finds every player hears")
            #expect(!told.contains("event: position") && !told.contains("event: claim") && !told.contains("event: player"))
        }
    }

    @Test func controlRoomStreamAndActsNeedTheAdminToken() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            #expect(try await client.call(.get, "/api/admin/live").status == .unauthorized)
            #expect(try await client.call(.get, "/api/admin/live", token: ada.token).status == .forbidden)
            let points = try await client.call(.post, "/api/admin/players/\(ada.id)/points", token: ada.token,
                                               json: ["amount": 5, "reason": "helped"])
            #expect(points.status == .forbidden)
        }
    }

    /// The overview carries each player's last position and the server's clock; points are
    /// adjusted by player id and the standing after is the answer.
    @Test func overviewHasPositionsAndPointsAreAdjusted() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            _ = try await client.call(.post, "/api/me/position", token: ada.token,
                                      json: ["latitude": Harness.b1.latitude, "longitude": Harness.b1.longitude, "accuracy": 30])
            let overview = try await client.call(.get, "/api/admin/overview", token: Harness.adminToken)
            let positions = try #require(overview["positions"] as? [[String: Any]])
            #expect(positions.count == 1 && positions[0]["player"] as? String == ada.id && positions[0]["accuracyM"] as? Double == 30)
            #expect(overview["now"] is String)
            let adjusted = try await client.call(.post, "/api/admin/players/\(ada.id)/points", token: Harness.adminToken,
                                                 json: ["amount": -3, "reason": "left the trail"])
            #expect(adjusted.status == .ok && adjusted["points"] as? Int == -3)
            let unknown = try await client.call(.post, "/api/admin/players/P999/points", token: Harness.adminToken,
                                                json: ["amount": 1, "reason": "x"])
            #expect(unknown.status == .notFound)
            let typo = try await client.call(.post, "/api/admin/players/\(ada.id)/points", token: Harness.adminToken,
                                             json: ["amount": 1_000_001, "reason": "typo"])
            #expect(typo.status == .unprocessableContent && typo.error == "adjustment-out-of-range")
        }
    }

    /// A report's photo is kept in the data directory and shown to the game master; a body
    /// that is not a picture is refused before anything is recorded.
    @Test func reportPhotoIsKeptForTheGameMasterAndANonPictureIsRefused() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            let png = try h.framePNG("A1")
            let notPicture = try await client.call(.post, "/api/reports", token: ada.token,
                                                   json: ["cache": "A1", "kind": "damaged", "photo": Data("hello".utf8).base64EncodedString()])
            #expect(notPicture.status == .unprocessableContent && notPicture.error == "bad-photo")
            #expect(try await h.session.store.openReports(hunt: "TEST").isEmpty, "nothing recorded for a refused report")
            let filed = try await client.call(.post, "/api/reports", token: ada.token,
                                              json: ["cache": "A1", "kind": "damaged", "text": "Wet", "photo": png.base64EncodedString()])
            let id = try #require(filed["id"] as? String)
            let photo = try await client.execute(uri: "/api/admin/reports/\(id)/photo", method: .get,
                                                 headers: [.authorization: "Bearer \(Harness.adminToken)"]) { $0 }
            // What is kept is a thumbnail made on the picture pool, never the upload itself.
            #expect(photo.status == .ok && photo.headers[.contentType] == "image/jpeg")
            let kept = Data(buffer: photo.body)
            #expect(kept != png && kept.starts(with: [0xFF, 0xD8, 0xFF]), "a JPEG, not the PNG that was sent")
            let thumbnail = try Picture(data: kept)
            #expect(max(thumbnail.storedWidth, thumbnail.storedHeight) <= 640, "\(thumbnail.storedWidth)×\(thumbnail.storedHeight)")
            let asPlayer = try await client.call(.get, "/api/admin/reports/\(id)/photo", token: ada.token)
            #expect(asPlayer.status == .forbidden)
        }
    }
}
