import Foundation
import GeoQR
import HTTPTypes
import HuntServer
import QRImaging
import Testing

@Suite("Claims by link, camera frame and photo")
struct ClaimAPITests {
    @Test func linkClaimInRadiusRevealsTheMessageOnce() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            let near = Harness.north(of: Harness.a1, metres: 10)
            let found = try await client.claim(h.code("A1"), token: ada.token, at: near, accuracy: 5)
            #expect(found["verdict"] as? String == "claimable")
            #expect(found["message"] as? String == "Welcome to A1")
            #expect(found["firstToFind"] as? Bool == true && (found["points"] as? Int ?? 0) > 0)
            let again = try await client.claim(h.code("A1").lowercased(), token: ada.token, at: near)
            #expect(again["verdict"] as? String == "already-found")
            let cards = try await client.call(.get, "/api/me/collection", token: ada.token)
            #expect(cards.text.contains("Welcome to A1"))
            #expect(try await client.call(.get, "/api/me/finds", token: ada.token).text.contains("\"cache\":\"A1\""))
            let board = try await client.call(.get, "/api/leaderboard")
            #expect((board["standings"] as? [[String: Any]])?.first?["name"] as? String == "Ada")
        }
    }

    /// Every numbered list of players comes ranked from the server, by one rule: players level
    /// in points and finds share a rank, and the next is ranked by how many come before it.
    @Test func theLeaderboardAndTheControlRoomRankLevelPlayersAlike() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            _ = try await client.join("Bo")
            _ = try await client.join("Cy")
            _ = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)
            func ranks(_ lines: Any?) throws -> [String: Int] {
                let lines = try #require(lines as? [[String: Any]])
                return Dictionary(uniqueKeysWithValues: lines.map { ($0["name"] as? String ?? "", $0["rank"] as? Int ?? 0) })
            }
            let board = try await client.call(.get, "/api/leaderboard")
            #expect(try ranks(board["standings"]) == ["Ada": 1, "Bo": 2, "Cy": 2])
            let overview = try await client.call(.get, "/api/admin/overview", token: Harness.adminToken)
            #expect(try ranks(overview["standings"]) == ["Ada": 1, "Bo": 2, "Cy": 2])
        }
    }

    @Test func refusedClaimsSayWhy() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let bo = try await client.join("Bo")
            let far = Harness.north(of: Harness.a1, metres: 300)
            let tooFar = try await client.claim(h.code("A1"), token: bo.token, at: far)
            #expect(tooFar["verdict"] as? String == "too-far")
            #expect(abs((tooFar["distanceM"] as? Double ?? 0) - 300) < 5)
            #expect(tooFar["direction"] as? String == "south")
            #expect(tooFar["message"] == nil)
            let forged = try await client.claim(h.code("A1", secret: .random()), token: bo.token, at: Harness.a1)
            #expect(forged["verdict"] as? String == "forged")
            #expect(try await client.claim(h.code("A1"), token: bo.token, at: nil)["verdict"] as? String == "no-location")
            #expect(try await client.claim("hello", token: bo.token, at: Harness.a1)["verdict"] as? String == "no-code")
            #expect(try await client.claim(h.code("A1"), token: "nope", at: Harness.a1).status == .unauthorized)
            let badPlace = try await client.call(.post, "/api/claims", token: bo.token, json: ["code": h.code("A1"), "latitude": 95, "longitude": 0])
            #expect(badPlace.status == .unprocessableContent && badPlace.error == "bad-location")
            let half = try await client.call(.post, "/api/claims", token: bo.token, json: ["code": h.code("A1"), "latitude": 40])
            #expect(half.error == "bad-location")
            // Refused from the Content-Length alone.
            let huge = try await client.call(.post, "/api/claims", token: bo.token, raw: Data(count: 70_000), contentType: "application/json")
            #expect(huge.status == .contentTooLarge && huge.error == "too-large")
        }
    }

    @Test func cameraFrameWithACodeClaimsAndAnEmptyFrameIsNotRecorded() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let cy = try await client.join("Cy")
            let empty = try PNGCodec.encode(GrayImage(width: 64, height: 64))
            let nothing = try await client.call(.post, "/api/claims/frame?latitude=40.6303&longitude=-8.6575", token: cy.token, raw: empty, contentType: "image/png")
            #expect(nothing["verdict"] as? String == "no-code")
            let frame = try h.framePNG("B1")
            let at = Harness.b1
            let found = try await client.call(.post, "/api/claims/frame?latitude=\(at.latitude)&longitude=\(at.longitude)&accuracy=8",
                                              token: cy.token, raw: frame, contentType: "image/png")
            #expect(found["verdict"] as? String == "claimable")
            #expect(found["message"] as? String == "Books are B1")
            let junk = try await client.call(.post, "/api/claims/frame", token: cy.token, raw: Data("not a picture".utf8), contentType: "image/png")
            #expect(junk.status == .unprocessableContent && junk.error == "bad-picture")
            let big = try await client.call(.post, "/api/claims/frame", token: cy.token, raw: Data(count: 3 << 20), contentType: "image/jpeg")
            #expect(big.status == .contentTooLarge)
            let overview = try await client.call(.get, "/api/admin/overview", token: Harness.adminToken)
            #expect((overview["finds"] as? [Any])?.count == 1)
        }
    }

    @Test func photoUploadUsesTheFormLocationWithoutEXIF() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let di = try await client.join("Di")
            let boundary = "geoqr-test-boundary"
            var body = Data()
            func part(_ name: String, _ value: Data, filename: String? = nil) {
                body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"".utf8))
                if let filename { body.append(Data("; filename=\"\(filename)\"\r\nContent-Type: image/png".utf8)) }
                body.append(Data("\r\n\r\n".utf8))
                body.append(value)
                body.append(Data("\r\n".utf8))
            }
            part("photo", try h.framePNG("A1"), filename: "a1.png")
            part("latitude", Data("\(Harness.a1.latitude)".utf8))
            part("longitude", Data("\(Harness.a1.longitude)".utf8))
            body.append(Data("--\(boundary)--\r\n".utf8))
            let reply = try await client.call(.post, "/api/claims/photo", token: di.token, raw: body,
                                              contentType: "multipart/form-data; boundary=\(boundary)")
            #expect(reply["verdict"] as? String == "claimable")
            #expect(reply["locationSource"] as? String == "browser")
            let notForm = try await client.call(.post, "/api/claims/photo", token: di.token, raw: Data("x".utf8), contentType: "image/png")
            #expect(notForm.error == "not-multipart")
            let tooBig = try await client.call(.post, "/api/claims/photo", token: di.token, raw: Data(count: 21 << 20),
                                               contentType: "multipart/form-data; boundary=x")
            #expect(tooBig.status == .contentTooLarge)
        }
    }

    /// Found by the multipart fuzz harness: a byte above 0x7F in a part's header name made
    /// multipart-kit trap, killing the server. Now it is a 400 like any other broken form.
    @Test func photoFormWithANonASCIIHeaderNameIsRefusedNotFatal() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let di = try await client.join("Di")
            let first = Data("--X\r\nContent-Disp".utf8) + Data([0xEF]) + Data("sition: form-data; name=\"photo\"\r\n\r\nabc\r\n--X--\r\n".utf8)
            let later = Data("--X\r\nContent-Disposition: form-data; name=\"latitude\"\r\n\r\n1\r\n--X\r\n".utf8)
                + Data([0xC3, 0xA9]) + Data(": x\r\n\r\nabc\r\n--X--\r\n".utf8)
            for body in [first, later] {
                let reply = try await client.call(.post, "/api/claims/photo", token: di.token, raw: body,
                                                  contentType: "multipart/form-data; boundary=X")
                #expect(reply.status == .badRequest && reply.error == "bad-form")
            }
        }
    }
}
