import Foundation
import Testing

/// `geoqr gm drop-positions` and `geoqr gm forget-player`, through the built binary.
@Suite struct PrivacyCommandTests {
    /// Demo cache A2 is 11 m from here.
    let near = "40.62800,-8.65990"

    /// The demo hunt, ended at `end`, keeping positions `hours` after, as `caches/NAME.json`.
    func endedHunt(_ geoqr: GeoQRProcess, _ name: String, end: Date, hours: Double) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: geoqr.path("caches/demo.json")))
        var hunt = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        hunt["end"] = ISO8601DateFormatter().string(from: end)
        hunt["positionRetentionHours"] = hours
        try JSONSerialization.data(withJSONObject: hunt).write(to: URL(fileURLWithPath: geoqr.path("caches/\(name).json")))
    }

    @Test func positionsGoAfterTheRetentionAndAForgottenPlayerSignsInNoMore() throws {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("code", "demo", "A2", "-o", "a2.png", "--size", "4").status == 0)
        #expect(try geoqr.run("player", "add", "Zebulon", "--hunt", "demo", "--pin", "4321").status == 0)
        let found = try geoqr.run("claim", "a2.png", "--hunt", "demo", "--player", "Zebulon", "--pin", "4321", "--at", near)
        #expect(found.status == 0, "\(found.stderr)")

        // A running hunt, then one that ended an hour ago and keeps positions two days.
        let running = try geoqr.run("gm", "drop-positions", "--hunt", "demo")
        #expect(running.status != 0 && running.stderr.contains("has not ended"), "\(running.stderr)")
        try endedHunt(geoqr, "recent", end: Date().addingTimeInterval(-3600), hours: 48)
        let early = try geoqr.run("gm", "drop-positions", "--hunt", "caches/recent.json")
        #expect(early.status != 0, "\(early.stdout)")
        #expect(early.stderr.hasPrefix("geoqr: positions are kept until 20") && early.stderr.filter { $0 == "\n" }.count == 1,
                "\(early.stderr)")

        try endedHunt(geoqr, "over", end: Date(timeIntervalSince1970: 1_600_000_000), hours: 0)
        let dropped = try geoqr.run("gm", "drop-positions", "--hunt", "caches/over.json")
        #expect(dropped.status == 0, "\(dropped.stderr)")
        #expect(dropped.stdout.contains("deleted the positions of 1 claims"), "\(dropped.stdout)")
        let again = try geoqr.run("gm", "drop-positions", "--hunt", "caches/over.json", "--json")
        #expect(again.status == 0, "\(again.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: again.stdoutData) as? [String: Any])
        #expect(answer["claims"] as? Int == 0 && answer["retentionHours"] as? Double == 0)
        #expect(!(try geoqr.run("ledger", "export", "--private").stdout.contains("40.628")))

        let forgotten = try geoqr.run("gm", "forget-player", "Zebulon", "--hunt", "demo", "--json")
        #expect(forgotten.status == 0, "\(forgotten.stderr)")
        let what = try #require(try JSONSerialization.jsonObject(with: forgotten.stdoutData) as? [String: Any])
        #expect(what["pseudonym"] as? String == "Forgotten player 1" && what["player"] as? String == "P1")
        let twice = try geoqr.run("gm", "forget-player", "P1", "--hunt", "demo")
        #expect(twice.status == 0 && twice.stdout.contains("was forgotten before"), "\(twice.stdout) \(twice.stderr)")
        let board = try geoqr.run("leaderboard", "--hunt", "demo", "--json")
        let first = (try JSONSerialization.jsonObject(with: board.stdoutData) as? [[String: Any]])?.first
        #expect(first?["name"] as? String == "Forgotten player 1" && (first?["points"] as? Int ?? 0) > 0)
        let signIn = try geoqr.run("claim", "a2.png", "--hunt", "demo", "--player", "Zebulon", "--pin", "4321", "--at", near)
        #expect(signIn.status != 0, "a forgotten player signed in")
        #expect(try geoqr.run("ledger", "verify").status == 0)
        let exported = try geoqr.run("ledger", "export", "--private").stdout
        #expect(!exported.contains("Zebulon") && !exported.contains("zebulon"))
        let unknown = try geoqr.run("gm", "forget-player", "Nobody", "--hunt", "demo")
        #expect(unknown.status != 0 && unknown.stderr.hasPrefix("geoqr: "), "\(unknown.stderr)")
    }
}
