import Foundation
import GeoQR
import HTTPTypes
import Hummingbird
import HuntServer
import Ledger
import Testing

/// Teams, paid hints, results and station health over the API.
@Suite("Teams, hints, results and stations over HTTP")
struct ControlRoomAPITests {
    /// The harness's hunt with teams and hints that cost 5 points.
    static let teamHunt: Hunt = {
        var hunt = Harness.hunt
        hunt.teams = ["Foxes", "Owls"]
        hunt.hintCost = 5
        return hunt
    }()

    /// A session of `hunt` on a temporary ledger (``Harness`` plays only its own hunt), and its
    /// folder, which the caller removes.
    static func app(for hunt: Hunt, secret: HuntSecret) throws -> (app: Application<RouterResponder<HuntRequestContext>>, folder: String) {
        let folder = NSTemporaryDirectory() + "geoqr-server-\(UUID().uuidString)"
        let store = try SQLiteGameStore(directory: folder, configuration: .init(pinCost: 4, synchronousFull: false))
        let session = ServedHunt(hunt: hunt, secret: secret, store: store,
                                  admin: AdminToken(value: Harness.adminToken),
                                  options: .init(leaderboardInterval: .milliseconds(100)))
        return (Application(router: HuntRouter.build(session: session)), folder)
    }

    @Test func aHuntWithTeamsSaysSoAndRefusesOthers() async throws {
        let secret = HuntSecret.random()
        let (app, folder) = try Self.app(for: Self.teamHunt, secret: secret)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await app.test(.live) { client in
            let hunt = try await client.call(.get, "/api/hunt")
            #expect(hunt["teams"] as? [String] == ["Foxes", "Owls"] && hunt["hintCost"] as? Int == 5)
            let badger = try await client.call(.post, "/api/join", json: ["name": "Ada", "pin": "4321", "team": "Badgers"])
            #expect(badger.status == .unprocessableContent && badger.error == "unknown-team")
            #expect(badger["message"] as? String == "\"Badgers\" is not a team of this hunt: choose Foxes, Owls")
            let ada = try await client.call(.post, "/api/join", json: ["name": "Ada", "pin": "4321", "team": "foxes"])
            #expect(ada.status == .created && (ada["player"] as? [String: Any])?["team"] as? String == "Foxes")
            let token = try #require(ada["token"] as? String)
            let bo = try await client.call(.post, "/api/join", json: ["name": "Bo", "pin": "4321", "team": "Owls"])
            _ = try await client.join("Cy")
            let code = CacheCode.payload(hunt: "TEST", cache: "A1", secret: secret)
            _ = try await client.claim(code, token: token, at: Harness.a1)
            _ = try await client.claim(code, token: try #require(bo["token"] as? String), at: Harness.a1)

            let board = try await client.call(.get, "/api/leaderboard")
            let standings = try #require(board["standings"] as? [[String: Any]])
            #expect(standings.map { $0["team"] as? String } == ["Foxes", "Owls", nil])
            let teams = try #require(board["teams"] as? [[String: Any]])
            #expect(teams.map { $0["team"] as? String } == ["Foxes", "Owls"])
            #expect(teams.map { $0["points"] as? Int } == [15, 10])
            #expect(teams.allSatisfy { $0["players"] as? Int == 1 && $0["finds"] as? Int == 1 })
        }
    }

    @Test func aPaidHintIsHiddenUntilRevealedAndCostsOnce() async throws {
        let secret = HuntSecret.random()
        let (app, folder) = try Self.app(for: Self.teamHunt, secret: secret)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await app.test(.live) { client in
            // A team hunt: the hint is the Foxes' (a player without a team would need the points).
            let ada = try await client.join("Ada", team: "Foxes")
            func a1() async throws -> [String: Any] {
                let list = try await client.call(.get, "/api/caches", token: ada.token)
                return try #require((list["caches"] as? [[String: Any]])?.first { $0["id"] as? String == "A1" })
            }
            var cache = try await a1()
            #expect(cache["hint"] == nil && cache["hintCost"] as? Int == 5 && cache["hintRevealed"] as? Bool == false)
            let anonymous = try #require(try await client.call(.get, "/api/caches")["caches"] as? [[String: Any]])
            #expect(anonymous.allSatisfy { $0["hint"] == nil }, "nobody reads a paid hint without paying")

            #expect(try await client.call(.post, "/api/caches/A1/hint").status == .unauthorized)
            let paid = try await client.call(.post, "/api/caches/a1/hint", token: ada.token)
            #expect(paid.status == .ok)
            #expect(paid["cache"] as? String == "A1" && paid["hint"] as? String == "steps")
            #expect(paid["cost"] as? Int == 5 && paid["charged"] as? Bool == true)
            let again = try await client.call(.post, "/api/caches/A1/hint", token: ada.token)
            #expect(again["charged"] as? Bool == false && again["hint"] as? String == "steps")
            #expect(try await client.call(.get, "/api/me", token: ada.token)["points"] as? Int == -5)
            cache = try await a1()
            #expect(cache["hint"] as? String == "steps" && cache["hintRevealed"] as? Bool == true)

            let none = try await client.call(.post, "/api/caches/B1/hint", token: ada.token)
            #expect(none.status == .notFound && none.error == "no-hint")
            #expect(try await client.call(.post, "/api/caches/ZZ/hint", token: ada.token).status == .notFound)
            let admin = try await client.call(.get, "/api/admin/ledger", token: Harness.adminToken).text
            #expect(admin.components(separatedBy: "hint-revealed").count == 2, "one event for two requests")
        }
    }

    @Test func freeHintsAreShownAndAnsweredWithoutARecord() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let hunt = try await client.call(.get, "/api/hunt")
            #expect(hunt["teams"] as? [String] == [] && hunt["hintCost"] as? Int == 0)
            let ada = try await client.join("Ada")
            let list = try await client.call(.get, "/api/caches", token: ada.token)
            let a1 = try #require((list["caches"] as? [[String: Any]])?.first)
            #expect(a1["hint"] as? String == "steps" && a1["hintCost"] == nil && a1["hintRevealed"] == nil)
            let hint = try await client.call(.post, "/api/caches/A1/hint", token: ada.token)
            #expect(hint["hint"] as? String == "steps" && hint["cost"] as? Int == 0 && hint["charged"] as? Bool == false)
            let ledger = try await client.call(.get, "/api/admin/ledger", token: Harness.adminToken).text
            #expect(!ledger.contains("hint-revealed"))
            // Without a list of teams, any team name will do.
            let bo = try await client.call(.post, "/api/join", json: ["name": "Bo", "pin": "4321", "team": "Badgers"])
            #expect(bo.status == .created)
        }
    }

    @Test func resultsAndStationsAreTheGameMastersOnly() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let ada = try await client.join("Ada")
            _ = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)
            let far = Harness.north(of: Harness.b1, metres: 500)
            for _ in 0..<2 { _ = try await client.claim(h.code("B1"), token: ada.token, at: far) }
            for path in ["/api/admin/results", "/api/admin/results/finds.csv", "/api/admin/results/standings.csv",
                         "/api/admin/results/teams.csv", "/api/admin/stations"] {
                #expect(try await client.call(.get, path).status == .unauthorized, "\(path)")
                #expect(try await client.call(.get, path, token: ada.token).status == .forbidden, "\(path)")
                #expect(try await client.call(.get, path, token: Harness.adminToken).status == .ok, "\(path)")
            }

            let results = try await client.call(.get, "/api/admin/results", token: Harness.adminToken)
            #expect(results["hunt"] as? String == "TEST")
            let standing = try #require((results["standings"] as? [[String: Any]])?.first)
            #expect(standing["rank"] as? Int == 1 && standing["name"] as? String == "Ada" && standing["points"] as? Int == 15)
            let find = try #require((results["finds"] as? [[String: Any]])?.first)
            #expect(find["playerName"] as? String == "Ada" && find["cacheName"] as? String == "Rectorate steps")
            #expect(find["voided"] as? Bool == false && find["method"] as? String == "link")
            #expect((find["time"] as? String)?.hasSuffix("Z") == true)

            let csv = try await client.call(.get, "/api/admin/results/finds.csv", token: Harness.adminToken)
            #expect(csv.headers[.contentType] == "text/csv; charset=utf-8; header=present")
            #expect(csv.headers[.contentDisposition] == "attachment; filename=\"TEST-finds.csv\"")
            let lines = csv.text.components(separatedBy: "\r\n")
            #expect(lines.first == "id,time,player,playerName,team,cache,cacheName,method,points,firstToFind,voided,voidReason")
            #expect(lines.count == 3 && lines[1].contains(",Ada,,A1,Rectorate steps,link,15,true,false,") && lines[2].isEmpty)
            let standings = try await client.call(.get, "/api/admin/results/standings.csv", token: Harness.adminToken)
            #expect(standings.text == "rank,player,name,team,points,finds\r\n1,\(ada.id),Ada,,15,1\r\n")

            let stations = try await client.call(.get, "/api/admin/stations", token: Harness.adminToken)
            let list = try #require(stations["stations"] as? [[String: Any]])
            #expect(list.map { $0["id"] as? String } == ["A1", "B1"])
            let a1 = list[0], b1 = list[1]
            #expect(a1["finds"] as? Int == 1 && (a1["lastFind"] as? String)?.hasSuffix("Z") == true)
            #expect(a1["warning"] is NSNull && a1["lastRefused"] is NSNull, "every field is there, null when empty")
            #expect(b1["finds"] as? Int == 0 && b1["refused"] as? [String: Int] == ["too-far": 2])
            #expect(b1["openReports"] as? Int == 0 && b1["disabled"] as? Bool == false && b1["warning"] is NSNull)
        }
    }
}
