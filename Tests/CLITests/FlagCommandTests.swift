import Foundation
import Testing

/// `geoqr gm flags` through the built binary, on a hunt of two caches 55 km apart.
@Suite struct FlagCommandTests {
    static let farHunt = """
        {"id": "far", "name": "Far apart", "radius": 50, "caches": [
          {"id": "X1", "name": "South", "lat": 40.0, "lon": -8.0, "message": "south"},
          {"id": "X2", "name": "North", "lat": 40.5, "lon": -8.0, "message": "north"}]}
        """

    @Test func flagsTooFastSamePhotoAndExactCoordinates() throws {
        let geoqr = try GeoQRProcess()
        try geoqr.write(Self.farHunt, to: "caches/far.json")
        for cache in ["X1", "X2"] {
            #expect(try geoqr.run("code", "far", cache, "-o", "\(cache).png", "--size", "4").status == 0)
        }
        for (name, pin) in [("Ada", "4321"), ("Bob", "9999")] {
            #expect(try geoqr.run("player", "add", name, "--hunt", "far", "--pin", pin).status == 0)
        }
        let empty = try geoqr.run("gm", "flags", "--hunt", "far")
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout == "no flags in FAR\n")

        func claim(_ photo: String, _ player: String, _ pin: String, at: String) throws -> String? {
            let r = try geoqr.run("claim", photo, "--hunt", "far", "--player", player, "--pin", pin, "--at", at, "--json")
            #expect(r.status == 0, "\(r.stderr)")
            return try GeoQRProcess.jsonLines(r).first?["find"] as? String
        }
        // Ada finds X1 from a few metres away, then X2, 55 km north, from its exact
        // coordinates, seconds later; Bob claims X1 with Ada's photo.
        let adaX1 = try claim("X1.png", "Ada", "4321", at: "40.00003,-8.00002")
        let adaX2 = try #require(try claim("X2.png", "Ada", "4321", at: "40.5,-8.0"))
        let bobX1 = try #require(try claim("X1.png", "Bob", "9999", at: "40.00002,-8.00003"))

        let r = try geoqr.run("gm", "flags", "--hunt", "far", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let flags = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [[String: Any]])
        let got = flags.map { "\($0["find"] as? String ?? "?") \($0["kind"] as? String ?? "?")" }
        #expect(got == ["\(adaX2) too-fast", "\(adaX2) exact-coordinates", "\(bobX1) same-photo"])
        #expect(flags.first?["otherFind"] as? String == adaX1)

        let text = try geoqr.run("gm", "flags", "--hunt", "far")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.first?.hasPrefix("\(adaX2) too-fast: Ada (P1) at X2: 55.") == true, "\(text.stdout)")
        #expect(lines.first?.contains("km/h") == true)

        // Voiding the find clears its flags.
        #expect(try geoqr.run("gm", "void", adaX2, "--hunt", "far", "--reason", "drove").status == 0)
        let after = try geoqr.run("gm", "flags", "--hunt", "far")
        #expect(after.stdout.split(separator: "\n").count == 1)
        #expect(after.stdout.contains("same-photo"))
    }
}
