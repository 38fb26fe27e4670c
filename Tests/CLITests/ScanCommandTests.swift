import Foundation
import GeoQR
import QRImaging
import Testing

@Suite struct ScanCommandTests {
    /// Demo cache A2, "Salt pan view", radius 40 m (the hunt's default).
    let saltPans = Coordinate(latitude: 40.62790, longitude: -8.65990)

    /// A working directory with a2.png, the demo hunt's code for A2, and its secret.
    func withCode() throws -> GeoQRProcess {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("code", "demo", "A2", "-o", "a2.png", "--size", "4").status == 0)
        return geoqr
    }

    @Test func aCodeScannedNearItsCacheIsClaimable() throws {
        let geoqr = try withCode()
        let r = try geoqr.run("scan", "a2.png", "--hunt", "demo", "--at", "40.62800,-8.65990")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "a2.png: A2 Salt pan view: claimable (11 m, radius 40 m)\n")
        let geocaching = try geoqr.run("scan", "a2.png", "--hunt", "demo", "--at", "N 40° 37.680' W 008° 39.594'")
        #expect(geocaching.status == 0 && geocaching.stdout.contains("claimable"))
    }

    @Test func tooFarGivesTheWGS84DistanceAndBearing() throws {
        let geoqr = try withCode()
        let at = Coordinate(latitude: 40.62600, longitude: -8.66250)
        let r = try geoqr.run("scan", "a2.png", "--hunt", "demo", "--at", "40.62600,-8.66250", "--json")
        #expect(r.status == 1)
        let json = try #require(try GeoQRProcess.jsonLines(r).first)
        let leg = Geodesic.inverse(from: at, to: saltPans)
        #expect(json["verdict"] as? String == "too-far")
        #expect(abs((json["distanceM"] as? Double ?? 0) - leg.distance) < 1e-6)
        #expect(abs((json["bearingDeg"] as? Double ?? 0) - leg.initialBearing) < 1e-9)
        let text = try geoqr.run("scan", "a2.png", "--hunt", "demo", "--at", "40.62600,-8.66250")
        let point = CompassPoint(bearing: leg.initialBearing).name
        #expect(text.stdout == "a2.png: too-far: walk \(Int(leg.distance.rounded())) m \(point) (bearing \(Int(leg.initialBearing.rounded()))°) to A2 Salt pan view, radius 40 m\n")
    }

    /// A phone photo: JPEG, stored sideways with EXIF orientation 6, GPS in its EXIF, the code
    /// small in a larger grey scene. Nothing on the command line says where it was taken.
    @Test func aPhonePhotoClaimsFromItsOwnEXIF() throws {
        let geoqr = try withCode()
        let code = try PNGCodec.decode(try geoqr.data("a2.png"))
        var scene = GrayImage(width: 900, height: 700, fill: 170)
        for y in 0..<code.height { for x in 0..<code.width { scene[x + 300, y + 200] = code[x, y] } }
        // Stored rotated: the camera wrote columns as rows, and orientation 6 tells readers to turn it back.
        var stored = GrayImage(width: scene.height, height: scene.width, fill: 0)
        for y in 0..<scene.height { for x in 0..<scene.width { stored[scene.height - 1 - y, x] = scene[x, y] } }
        let jpeg = try JPEGEncoder.encode(stored, quality: 85)
        let near = Coordinate(latitude: 40.62800, longitude: -8.65985)
        let photo = addingEXIF(gpsTIFF(latitude: near.latitude, longitude: near.longitude, orientation: 6), toJPEG: jpeg)
        try photo.write(to: URL(fileURLWithPath: geoqr.path("IMG_0042.jpg")))

        let r = try geoqr.run("scan", "IMG_0042.jpg", "--hunt", "demo", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try GeoQRProcess.jsonLines(r).first)
        #expect(json["verdict"] as? String == "claimable")
        #expect(json["locationSource"] as? String == "exif")
        let expected = Geodesic.inverse(from: near, to: saltPans).distance
        #expect(abs((json["distanceM"] as? Double ?? 0) - expected) < 0.5, "EXIF seconds are stored to 1/10000")

        // The same photo taken 300 m away is too far, whatever the player claims.
        let far = addingEXIF(gpsTIFF(latitude: 40.63060, longitude: -8.65990, orientation: 6), toJPEG: jpeg)
        try far.write(to: URL(fileURLWithPath: geoqr.path("IMG_0043.jpg")))
        let r2 = try geoqr.run("scan", "IMG_0043.jpg", "--hunt", "demo", "--at", "40.62790,-8.65990", "--json")
        #expect(r2.status == 1)
        #expect(try GeoQRProcess.jsonLines(r2).first?["verdict"] as? String == "too-far")
    }

    @Test func theJSONShape() throws {
        let geoqr = try withCode()
        let r = try geoqr.run("scan", "a2.png", "--hunt", "demo", "--at", "40.62800,-8.65990", "--accuracy", "15", "--json")
        let lines = try GeoQRProcess.jsonLines(r)
        #expect(lines.count == 1)
        let json = try #require(lines.first)
        #expect(Set(json.keys) == ["file", "verdict", "sentence", "line", "refused", "offerTypedCode", "cache", "cacheName", "payload", "distanceM",
                                   "bearingDeg", "direction", "radiusM", "allowedM", "locationSource", "latitude", "longitude",
                                   "accuracyM", "scanTime", "scanTimeSource"])
        #expect(json["file"] as? String == "a2.png" && json["cache"] as? String == "A2")
        #expect(json["verdict"] as? String == "claimable" && json["locationSource"] as? String == "at")
        #expect(json["refused"] as? Bool == false && json["offerTypedCode"] as? Bool == false)
        #expect(json["radiusM"] as? Double == 40 && json["allowedM"] as? Double == 55 && json["accuracyM"] as? Double == 15)
        #expect(json["scanTimeSource"] as? String == "claim" && json["otherHunt"] == nil)
        #expect((json["payload"] as? String)?.hasPrefix("GQ1.DEMO.A2.") == true)
        #expect(ISO8601DateFormatter().date(from: json["scanTime"] as? String ?? "") != nil)
    }

    @Test func aCodeSignedWithAnotherSecretIsForged() throws {
        let geoqr = try withCode()
        let other = try geoqr.run("code", "demo", "A2", "-o", "forged.png", "--size", "4",
                                  environment: ["GEOQR_DATA": geoqr.path("elsewhere")])
        #expect(other.status == 0)
        let r = try geoqr.run("scan", "forged.png", "--hunt", "demo", "--at", "40.62790,-8.65990")
        #expect(r.status == 1)
        #expect(r.stdout == "forged.png: forged: code's signature does not match this hunt's secret (forged or altered)\n")
    }

    @Test func noLocationWithoutGPSOrAt() throws {
        let geoqr = try withCode()
        let r = try geoqr.run("scan", "a2.png", "--hunt", "demo")
        #expect(r.status == 1)
        #expect(r.stdout == "a2.png: A2 Salt pan view: no-location (the photo has no GPS position; pass --at LAT,LON)\n")
    }

    @Test func theEXIFPositionWinsOverAt() throws {
        let geoqr = try withCode()
        let tagged = addingGPS(latitude: 40.62795, longitude: -8.65985, toPNG: try geoqr.data("a2.png"))
        try tagged.write(to: URL(fileURLWithPath: geoqr.path("tagged.png")))
        let r = try geoqr.run("scan", "tagged.png", "--hunt", "demo", "--at", "41,-8", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try GeoQRProcess.jsonLines(r).first)
        #expect(json["verdict"] as? String == "claimable" && json["locationSource"] as? String == "exif")
        let far = addingGPS(latitude: -40.62795, longitude: 8.65985, toPNG: try geoqr.data("a2.png"))
        try far.write(to: URL(fileURLWithPath: geoqr.path("far.png")))
        let south = try #require(try GeoQRProcess.jsonLines(try geoqr.run("scan", "far.png", "--hunt", "demo", "--json")).first)
        #expect(south["latitude"] as? Double ?? 0 < -40 && south["longitude"] as? Double ?? 0 > 8, "S and E signs read")
        #expect(south["verdict"] as? String == "too-far")
    }

    @Test func outsideTheHuntsTimeWindow() throws {
        let geoqr = try GeoQRProcess()
        try geoqr.write("""
        {"id": "past", "name": "Last year", "start": "2020-05-01T09:00:00Z", "end": "2020-05-01T17:00:00Z",
         "caches": [{"id": "P1", "name": "Old oak", "lat": 40.62790, "lon": -8.65990}]}
        """, to: "caches/past.json")
        #expect(try geoqr.run("code", "past", "P1", "-o", "p1.png", "--size", "4").status == 0)
        let r = try geoqr.run("scan", "p1.png", "--hunt", "past", "--at", "40.62790,-8.65990")
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("p1.png: P1 Old oak: outside-time-window (scanned "), "\(r.stdout)")
        #expect(r.stdout.hasSuffix("; hunt ran from 2020-05-01 09:00 UTC to 2020-05-01 17:00 UTC)\n"), "\(r.stdout)")
    }

    @Test func foldersAreWalkedAndBadFilesAreOneLineEach() throws {
        let geoqr = try withCode()
        try FileManager.default.createDirectory(atPath: geoqr.path("photos/day1"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: geoqr.path("a2.png"), toPath: geoqr.path("photos/day1/a2.png"))
        try geoqr.write("not a picture", to: "photos/notes.png")
        try geoqr.write("ignored", to: "photos/readme.txt")
        try PNGCodec.encode(GrayImage(width: 50, height: 50)).write(to: URL(fileURLWithPath: geoqr.path("photos/blank.png")))
        let r = try geoqr.run("scan", "photos", "missing.png", "--hunt", "demo", "--at", "40.62800,-8.65990")
        #expect(r.status == 0)
        #expect(r.stdout == """
        photos/blank.png: no-code: no GeoQR code found
        photos/day1/a2.png: A2 Salt pan view: claimable (11 m, radius 40 m)

        """)
        let errors = r.stderr.split(separator: "\n")
        #expect(errors.count == 2, "\(r.stderr)")
        #expect(errors.contains { $0.hasPrefix("geoqr: missing.png: no such file") })
        #expect(errors.contains { $0.hasPrefix("geoqr: photos/notes.png: ") })
    }

    @Test func aHuntWithoutASecretHereIsOneLine() throws {
        let geoqr = try withCode()
        let r = try geoqr.run("scan", "a2.png", "--hunt", "demo", environment: ["GEOQR_DATA": geoqr.path("empty")])
        #expect(r.status == 1 && r.stdout.isEmpty)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.hasPrefix("geoqr: hunt DEMO has no secret in "))
        #expect(!FileManager.default.fileExists(atPath: geoqr.path("empty")), "scanning never makes a secret")
    }

    @Test("usage mistakes exit 2", arguments: [
        ["scan", "--hunt", "demo"],
        ["scan", "a2.png"],
        ["scan", "a2.png", "--hunt", "demo", "--at", "95,1"],
        ["scan", "a2.png", "--hunt", "demo", "--at", "somewhere"],
        ["scan", "a2.png", "--hunt", "demo", "--at", "40,-8", "--accuracy", "-3"],
        ["scan", "a2.png", "--hunt", "demo", "--accuracy", "10"],
        ["scan", "a2.png", "--hunt", "demo", "--bogus"],
    ])
    func usageMistakes(_ arguments: [String]) throws {
        let r = try GeoQRProcess().run(arguments: arguments)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
        #expect(r.stderr.contains("Error:") && r.stdout.isEmpty)
    }
}
