import Foundation
import Testing

/// Trackables from the command line, through the built binary, on the demo hunt: A2 and A3
/// are about 370 m apart on the lagoon walk.
@Suite struct TrackableCommandTests {
    let nearA2 = "40.62800,-8.65990"
    let nearA3 = "40.62515,-8.66205"

    func json(_ r: GeoQRProcess.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any], "\(r.stdout)\(r.stderr)")
    }

    @Test func seedPickUpDropAndFollowATrackable() throws {
        let geoqr = try GeoQRProcess()
        for cache in ["A2", "A3"] {
            #expect(try geoqr.run("code", "demo", cache, "-o", "\(cache).png", "--size", "4").status == 0)
        }
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321").status == 0)
        #expect(try geoqr.run("player", "add", "Bob", "--hunt", "demo", "--pin", "9999").status == 0)
        let ada = ["--hunt", "demo", "--player", "Ada", "--pin", "4321"]

        let seeded = try geoqr.run("trackable", "seed", "Rubber duck", "--into", "Salt pan view", "--hunt", "demo", "--json")
        #expect(seeded.status == 0, "\(seeded.stderr)")
        let id = try #require(try json(seeded)["id"] as? String)
        #expect(try json(seeded)["cache"] as? String == "A2")

        // Not found yet: no pick-up, and nothing written.
        let before = try geoqr.run("ledger", "export").stdout
        let early = try geoqr.run(arguments: ["trackable", "pick-up", id] + ada)
        #expect(early.status == 1)
        #expect(early.stderr.hasPrefix("geoqr: ") && early.stderr.split(separator: "\n").count == 1, "\(early.stderr)")
        #expect(try geoqr.run("ledger", "export").stdout == before)

        #expect(try geoqr.run(arguments: ["claim", "A2.png", "--at", nearA2] + ada).status == 0)
        // By name, from wherever it sits.
        let picked = try geoqr.run(arguments: ["trackable", "pick-up", "rubber DUCK"] + ada)
        #expect(picked.status == 0, "\(picked.stderr)")
        #expect(picked.stdout == "Ada picked up \(id) Rubber duck from A2\n")
        let bobTries = try geoqr.run("trackable", "pick-up", id, "--from", "A2", "--hunt", "demo", "--player", "Bob", "--pin", "9999")
        #expect(bobTries.status == 1, "one holder at a time")

        let sameCache = try geoqr.run(arguments: ["trackable", "drop", id, "--into", "A2"] + ada)
        #expect(sameCache.status == 1)
        let notFound = try geoqr.run(arguments: ["trackable", "drop", id, "--into", "A3"] + ada)
        #expect(notFound.status == 1, "A3 is not found yet")
        #expect(try geoqr.run(arguments: ["claim", "A3.png", "--at", nearA3] + ada).status == 0)
        let dropped = try geoqr.run(arguments: ["trackable", "drop", id, "--into", "A3", "--json"] + ada)
        #expect(dropped.status == 0, "\(dropped.stderr)")

        let shown = try json(try geoqr.run("trackable", "show", id, "--hunt", "demo", "--json"))
        #expect(shown["cache"] as? String == "A3")
        #expect(shown["holder"] == nil)
        let trips = try #require(shown["trips"] as? [[String: Any]])
        #expect(trips.count == 1)
        #expect(trips.first?["from"] as? String == "A2")
        #expect(trips.first?["to"] as? String == "A3")
        let total = try #require(shown["totalDistance"] as? Double)
        #expect((300...450).contains(total), "A2 to A3 is about 370 m, got \(total)")
        #expect(trips.first?["distance"] as? Double == total)

        let text = try geoqr.run("trackable", "show", "--hunt", "demo")
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("\(id) Rubber duck: in A3; 1 trip, ") == true, "\(text.stdout)")
        #expect(lines.count == 2 && lines[1].contains("Ada (P1): A2 → A3"), "\(text.stdout)")

        let unknown = try geoqr.run("trackable", "show", "K999", "--hunt", "demo")
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "geoqr: no item K999 in this hunt\n")
        #expect(try geoqr.run("ledger", "verify").status == 0)
    }

    @Test(arguments: [["trackable"], ["trackable", "seed"], ["trackable", "pick-up"], ["trackable", "drop"],
                      ["trackable", "show"], ["gm", "flags"]])
    func everyCommandHasHelpAndJSON(_ command: [String]) throws {
        let r = try GeoQRProcess().run(arguments: command + ["--help"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("USAGE:") || r.stdout.contains("Usage:"), "\(r.stdout)")
        if command.count > 1 { #expect(r.stdout.contains("--json"), "\(command)") }
    }
}
