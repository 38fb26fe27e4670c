import Foundation
import Testing

/// `geoqr results` at the game master's desk: one CSV table at a time, or everything as JSON;
/// and `geoqr hint`.
@Suite struct ResultsCommandTests {
    /// Demo cache A2, radius 40 m; 40.62800,-8.65990 is 11 m away.
    let near = "40.62800,-8.65990"

    @Test func resultsAsCSVAndJSON() throws {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("code", "demo", "A2", "-o", "a2.png", "--size", "4").status == 0)
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321", "--team", "Foxes").status == 0)
        #expect(try geoqr.run("player", "add", "Bob, Jr.", "--hunt", "demo", "--pin", "4321", "--team", "owls").status == 0)
        let claim = try geoqr.run("claim", "a2.png", "--hunt", "demo", "--player", "Ada", "--pin", "4321", "--at", near, "--json")
        #expect(claim.status == 0, "\(claim.stderr)")
        let points = try #require(try GeoQRProcess.jsonLines(claim).first?["points"] as? Int)

        let standings = try geoqr.run("results", "--hunt", "demo")
        #expect(standings.status == 0, "\(standings.stderr)")
        #expect(standings.stdout == "rank,player,name,team,points,finds\r\n1,P1,Ada,Foxes,\(points),1\r\n"
                                   + "2,P2,\"Bob, Jr.\",Owls,0,0\r\n")

        let finds = try geoqr.run("results", "--hunt", "demo", "--what", "finds", "--format", "csv")
        let lines = finds.stdout.components(separatedBy: "\r\n")
        #expect(lines.count == 3 && lines[2].isEmpty)
        #expect(lines[0] == "id,time,player,playerName,team,cache,cacheName,method,points,firstToFind,voided,voidReason")
        #expect(lines[1].hasPrefix("F3,") && lines[1].hasSuffix(",P1,Ada,Foxes,A2,Salt pan view,photo,\(points),true,false,"),
                "\(lines[1])")

        let teams = try geoqr.run("results", "--hunt", "demo", "--what", "teams")
        #expect(teams.stdout == "rank,team,points,finds,players\r\n1,Foxes,\(points),1,1\r\n2,Owls,0,0,1\r\n")

        let json = try geoqr.run("results", "--hunt", "demo", "--format", "json")
        #expect(json.status == 0, "\(json.stderr)")
        let all = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        #expect(all["hunt"] as? String == "DEMO")
        #expect((all["standings"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Ada", "Bob, Jr."])
        #expect((all["teams"] as? [[String: Any]])?.count == 2)
        let find = try #require((all["finds"] as? [[String: Any]])?.first)
        #expect(find["cache"] as? String == "A2" && find["points"] as? Int == points && find["voided"] as? Bool == false)
        #expect((find["time"] as? String)?.hasSuffix("Z") == true)

        let both = try geoqr.run("results", "--hunt", "demo", "--format", "json", "--what", "finds")
        #expect(both.status != 0 && both.stdout.isEmpty)
        #expect(both.stderr.contains("--what chooses a CSV table"), "\(both.stderr)")
        let unknown = try geoqr.run("results", "--hunt", "demo", "--what", "prizes")
        #expect(unknown.status != 0 && unknown.stderr.contains("standings"), "\(unknown.stderr)")
    }

    @Test func aFreeHintIsShownAndRecordsNothing() throws {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321").status == 0)
        let hint = try geoqr.run("hint", "A1", "--hunt", "demo", "--player", "Ada", "--pin", "4321")
        #expect(hint.status == 0, "\(hint.stderr)")
        #expect(hint.stdout == "A1: Under the third step, left side.\n")
        let kinds = try GeoQRProcess.jsonLines(try geoqr.run("ledger", "show", "--hunt", "demo", "--json")).map { $0["kind"] as? String }
        #expect(kinds == ["player-joined"])
    }

    @Test func aPaidHintCostsOnce() throws {
        let geoqr = try GeoQRProcess()
        let demo = try String(contentsOfFile: geoqr.path("caches/demo.json"), encoding: .utf8)
        try geoqr.write(demo.replacingOccurrences(of: #""radius": 40,"#, with: #""radius": 40, "hintCost": 3,"#),
                        to: "caches/paid.json")
        // In a hunt with teams, a hint is the team's: Ada plays for the Foxes (alone, with no
        // points, she could not pay).
        let alone = try geoqr.run("player", "add", "Dan", "--hunt", "caches/paid.json", "--pin", "4321")
        #expect(alone.status == 0)
        let refused = try geoqr.run("hint", "A1", "--hunt", "caches/paid.json", "--player", "Dan", "--pin", "4321")
        #expect(refused.status != 0 && refused.stderr.contains("this hint costs 3 points and you have 0"), "\(refused.stderr)")
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "caches/paid.json", "--pin", "4321", "--team", "Foxes").status == 0)
        let first = try geoqr.run("hint", "A1", "--hunt", "caches/paid.json", "--player", "Ada", "--pin", "4321")
        #expect(first.stdout == "A1: Under the third step, left side. (-3 points)\n", "\(first.stderr)")
        let again = try geoqr.run("hint", "a1", "--hunt", "caches/paid.json", "--player", "Ada", "--pin", "4321", "--json")
        let answer = try #require(try JSONSerialization.jsonObject(with: again.stdoutData) as? [String: Any])
        #expect(answer["charged"] as? Bool == false && answer["cost"] as? Int == 3)
        let board = try geoqr.run("leaderboard", "--hunt", "caches/paid.json", "--json")
        #expect((try JSONSerialization.jsonObject(with: board.stdoutData) as? [[String: Any]])?.last?["points"] as? Int == -3)
        #expect(try geoqr.run("ledger", "verify").status == 0)
    }
}
