import Foundation
import Testing

/// The game played from the command line, through the built binary: join, claim, collect,
/// rank, and the game master's secret rotation, with the ledger verified at the end.
@Suite struct GameCommandTests {
    /// Demo cache A2, "Salt pan view", radius 40 m; 40.62800,-8.65990 is 11 m away.
    let near = "40.62800,-8.65990"

    func claim(_ geoqr: GeoQRProcess, pin: String = "4321", json: Bool = false) throws -> GeoQRProcess.Result {
        try geoqr.run(arguments: ["claim", "a2.png", "--hunt", "demo", "--player", "ada", "--pin", pin, "--at", near]
                      + (json ? ["--json"] : []))
    }

    @Test func aPlayerClaimsCollectsRanksAndARotatedSecretForgesOldCodes() throws {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("code", "demo", "A2", "-o", "a2.png", "--size", "4").status == 0)
        let joined = try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321")
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout == "Ada joined DEMO as P1\n")
        let bob = try geoqr.run(arguments: ["player", "add", "Bob", "--hunt", "demo"], input: Data("9999\n".utf8))
        #expect(bob.status == 0, "PIN from standard input: \(bob.stderr)")

        let found = try claim(geoqr, json: true)
        #expect(found.status == 0, "\(found.stderr)")
        let line = try #require(try GeoQRProcess.jsonLines(found).first)
        #expect(line["outcome"] as? String == "found")
        #expect(line["cache"] as? String == "A2")
        let message = try #require(line["message"] as? String)
        #expect(!message.isEmpty)
        let find = try #require(line["find"] as? String)
        #expect((line["points"] as? Int ?? 0) > 0)

        let collection = try geoqr.run("collection", "ADA", "--hunt", "demo", "--json")
        #expect(collection.status == 0, "\(collection.stderr)")
        let cards = try #require(try JSONSerialization.jsonObject(with: collection.stdoutData) as? [[String: Any]])
        #expect(cards.count == 1)
        #expect(cards.first?["cache"] as? String == "A2")
        #expect(cards.first?["message"] as? String == message)

        let board = try geoqr.run("leaderboard", "--hunt", "demo", "--json")
        let standings = try #require(try JSONSerialization.jsonObject(with: board.stdoutData) as? [[String: Any]])
        #expect(standings.map { $0["name"] as? String } == ["Ada", "Bob"])
        #expect(standings.first?["finds"] as? Int == 1)
        #expect(standings.first?["points"] as? Int == line["points"] as? Int)

        let again = try claim(geoqr, json: true)
        #expect(again.status == 0)
        let repeated = try #require(try GeoQRProcess.jsonLines(again).first)
        #expect(repeated["outcome"] as? String == "already-found")
        #expect(repeated["find"] as? String == find, "the same claim answers with the original find")
        let after = try geoqr.run("leaderboard", "--hunt", "demo", "--json")
        #expect(after.stdout == board.stdout, "a repeated claim earns nothing")

        let wrong = try claim(geoqr, pin: "0000")
        #expect(wrong.status == 1)
        #expect(wrong.stdout.isEmpty)
        #expect(wrong.stderr.hasPrefix("geoqr: wrong PIN"))
        #expect(wrong.stderr.split(separator: "\n").count == 1)

        let rotated = try geoqr.run("gm", "rotate-secret", "--hunt", "demo", "--json")
        #expect(rotated.status == 0, "\(rotated.stderr)")
        let key = geoqr.dataDirectory.appendingPathComponent("secrets/DEMO.key").path
        let mode = try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let forged = try geoqr.run("claim", "a2.png", "--hunt", "demo", "--player", "Bob", "--pin", "9999", "--at", near, "--json")
        #expect(forged.status == 1)
        #expect(try GeoQRProcess.jsonLines(forged).first?["verdict"] as? String == "forged")
        #expect(try GeoQRProcess.jsonLines(forged).first?["outcome"] as? String == "attempt")

        let history = try geoqr.run("ledger", "show", "--hunt", "demo", "--player", "Bob", "--json")
        let kinds = try GeoQRProcess.jsonLines(history).map { $0["kind"] as? String }
        #expect(kinds == ["player-joined", "claim-attempted"])
        #expect(!history.stdout.contains("pinHash"))

        let verify = try geoqr.run("ledger", "verify")
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }

    @Test func unknownNamesAreOneLineErrorsAndWriteNothing() throws {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321").status == 0)
        let before = try geoqr.run("ledger", "export").stdout
        for arguments in [["collection", "Zed", "--hunt", "demo"],
                          ["report", "Z9", "faded", "--hunt", "demo", "--player", "Ada", "--pin", "4321", "--kind", "unreadable"],
                          ["report", "A2", "faded", "--hunt", "demo", "--player", "Zed", "--pin", "4321", "--kind", "missing"],
                          ["gm", "void", "F99", "--hunt", "demo", "--reason", "test"],
                          ["gm", "adjust", "Zed", "5", "--hunt", "demo", "--reason", "test"],
                          ["trade", "accept", "T99", "--hunt", "demo", "--player", "Ada", "--pin", "4321"],
                          ["player", "add", "ada", "--hunt", "demo", "--pin", "1111"]] {
            let r = try geoqr.run(arguments: arguments)
            #expect(r.status == 1, "\(arguments)")
            #expect(r.stderr.hasPrefix("geoqr: ") && r.stderr.split(separator: "\n").count == 1, "\(arguments): \(r.stderr)")
        }
        #expect(try geoqr.run("ledger", "export").stdout == before, "refused acts leave no events")
    }

    @Test func reportsTradesAndGameMasterActs() throws {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("code", "demo", "A2", "-o", "a2.png", "--size", "4").status == 0)
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321").status == 0)
        #expect(try geoqr.run("player", "add", "Bob", "--hunt", "demo", "--pin", "9999").status == 0)
        let found = try GeoQRProcess.jsonLines(try claim(geoqr, json: true)).first
        let card = try #require(found?["card"] as? String)

        let offer = try geoqr.run("trade", "offer", "--hunt", "demo", "--player", "Ada", "--pin", "4321",
                                  "--to", "bob", "--give", card, "--json")
        #expect(offer.status == 0, "\(offer.stderr)")
        let trade = try #require(try JSONSerialization.jsonObject(with: offer.stdoutData) as? [String: Any])
        let id = try #require(trade["id"] as? String)
        let accepted = try geoqr.run("trade", "accept", id, "--hunt", "demo", "--player", "Bob", "--pin", "9999")
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(accepted.stdout.hasSuffix(": accepted\n"))
        let bobs = try geoqr.run("collection", "Bob", "--hunt", "demo", "--json")
        #expect((try JSONSerialization.jsonObject(with: bobs.stdoutData) as? [[String: Any]])?.first?["id"] as? String == card)

        let report = try geoqr.run("report", "Salt pan view", "The code is faded", "--hunt", "demo", "--player", "Bob",
                                   "--pin", "9999", "--kind", "unreadable", "--json")
        #expect(report.status == 0, "\(report.stderr)")
        let reportID = try #require((try JSONSerialization.jsonObject(with: report.stdoutData) as? [String: Any])?["id"] as? String)
        #expect(try geoqr.run("gm", "resolve", reportID, "--hunt", "demo", "--resolution", "reprinted").status == 0)
        #expect(try geoqr.run("gm", "adjust", "--hunt", "demo", "--reason", "late", "Ada", "--", "-3").status == 0)
        #expect(try geoqr.run("gm", "disable", "A2", "--hunt", "demo", "--reason", "flooded").status == 0)
        let findID = try #require(found?["find"] as? String)
        #expect(try geoqr.run("gm", "void", findID, "--hunt", "demo", "--reason", "test").status == 0)
        let board = try geoqr.run("leaderboard", "--hunt", "demo", "--json")
        let ada = (try JSONSerialization.jsonObject(with: board.stdoutData) as? [[String: Any]])?.first { $0["name"] as? String == "Ada" }
        #expect(ada?["points"] as? Int == -3)

        let cacheHistory = try GeoQRProcess.jsonLines(try geoqr.run("ledger", "show", "--hunt", "demo", "--cache", "A2", "--json"))
        #expect(cacheHistory.map { $0["kind"] as? String } == ["find-recorded", "report-filed", "cache-availability"])
        #expect(try geoqr.run("ledger", "verify").status == 0)
    }
}

/// The game master gives a locked-out player a new PIN; the published ledger never holds a
/// PIN's hash; a team is checked at the desk as on the phone.
@Suite struct CredentialCommandTests {
    @Test func aResetPINLiftsALockoutAndTheExportHoldsNoPINHash() throws {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321", "--team", "Foxes").status == 0)
        var locked = ""
        for _ in 0..<6 {
            let wrong = try geoqr.run("trade", "cancel", "T1", "--hunt", "demo", "--player", "Ada", "--pin", "0000")
            locked = wrong.stderr
        }
        #expect(locked.contains("too many wrong PINs"), "\(locked)")
        let reset = try geoqr.run(arguments: ["gm", "reset-pin", "ada", "--hunt", "demo", "--json"], input: Data("8642\n".utf8))
        #expect(reset.status == 0, "\(reset.stderr)")
        let player = try JSONSerialization.jsonObject(with: reset.stdoutData) as? [String: Any]
        #expect(player?["id"] as? String == "P1")
        let signedIn = try geoqr.run("trade", "cancel", "T1", "--hunt", "demo", "--player", "Ada", "--pin", "8642")
        #expect(signedIn.stderr == "geoqr: no trade T1 in this hunt\n", "the new PIN signs in: \(signedIn.stderr)")
        let old = try geoqr.run("trade", "cancel", "T1", "--hunt", "demo", "--player", "Ada", "--pin", "4321")
        #expect(old.stderr.contains("wrong PIN"), "\(old.stderr)")
        #expect(try geoqr.run("gm", "reset-pin", "Nobody", "--hunt", "demo", "--pin", "1111").stderr
                == "geoqr: no player Nobody in this hunt\n")
        #expect(try geoqr.run("gm", "reset-pin", "Ada", "--hunt", "demo", "--pin", "12").status == 1)

        for format in ["jsonl", "csv"] {
            // The game master's export holds the reset; the published one withholds it (issue 24 §7).
            let export = try geoqr.run("ledger", "export", "--private", "--format", format)
            #expect(export.status == 0, "\(export.stderr)")
            #expect(export.stdout.contains("player-joined") && export.stdout.contains("pin-reset"))
            #expect(!export.stdout.contains("pinHash") && !export.stdout.contains("$2b$"), "no PIN hash in any export")
            let published = try geoqr.run("ledger", "export", "--format", format).stdout
            #expect(published.contains("player-joined") && !published.contains("pin-reset") && !published.contains("$2b$"))
        }
        #expect(try geoqr.run("ledger", "verify").status == 0)
    }

    @Test func aTeamNameIsCheckedWhereverAPlayerJoins() throws {
        let geoqr = try GeoQRProcess()
        let bad = try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321", "--team", "Red\tTeam")
        #expect(bad.status == 1)
        #expect(bad.stderr == "geoqr: a team name has 1 to 32 characters and no control characters\n")
        // The demo hunt lists its teams, Foxes and Owls: only those, in any case.
        let unlisted = try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321", "--team", "Red")
        #expect(unlisted.status == 1)
        #expect(unlisted.stderr == "geoqr: \"Red\" is not a team of this hunt: choose Foxes, Owls\n")
        let joined = try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321", "--team", "  owls  ", "--json")
        let player = try JSONSerialization.jsonObject(with: joined.stdoutData) as? [String: Any]
        #expect(player?["team"] as? String == "Owls")
    }
}
