import Foundation
import GeoQR
import QRImaging
import Testing

/// One claim, two front ends: the same photo, player and hunt claimed once through
/// `geoqr claim` and once through `POST /api/claims/photo` of a real `geoqr serve` on a socket,
/// each on a fresh ledger with the same secret, give the same verdict, the same find time and
/// the same event body. Both call the one photo claim of the `Play` layer; this shows it.
@Suite(.enabled(if: ["/usr/bin/exiftool", "/usr/bin/curl"].allSatisfy(FileManager.default.isExecutableFile(atPath:)),
                "needs exiftool and curl (scripts/apt-packages-test.txt)"))
struct ClaimParityTests {
    /// A hunt with no time window, so the photo's own time decides.
    static let hunt = """
        {"id": "parity", "name": "Parity", "radius": 40,
         "caches": [{"id": "P1", "name": "Old oak", "lat": 40.62790, "lon": -8.65990, "message": "Acorns."}]}
        """
    static let photoTime = "2026:11:20 10:15:30"   // UTC, written as the GPS time and DateTimeOriginal

    @Test func aPhotoClaimedAtTheDeskAndOnThePhoneLeavesTheSameFind() async throws {
        try await compare { geoqr in try Self.scene(geoqr, withPoster: false) }
    }

    @Test func aBigUnrelatedCodeBesideTheCacheCodeHidesNothingOnEitherPath() async throws {
        try await compare { geoqr in try Self.scene(geoqr, withPoster: true) }
    }

    func compare(_ makePhoto: (GeoQRProcess) throws -> Void) async throws {
        let desk = try GeoQRProcess()
        try desk.write(Self.hunt, to: "caches/parity.json")
        #expect(try desk.run("code", "parity", "P1", "-o", "p1.png", "--size", "3").status == 0)
        try makePhoto(desk)
        let phone = try GeoQRProcess()
        try phone.write(Self.hunt, to: "caches/parity.json")
        try FileManager.default.createDirectory(at: phone.dataDirectory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: desk.dataDirectory.appendingPathComponent("secrets"),
                                         to: phone.dataDirectory.appendingPathComponent("secrets"))
        let photo = try desk.data("photo.jpg")

        #expect(try desk.run("player", "add", "Ada", "--hunt", "parity", "--pin", "4321").status == 0)
        let claimed = try desk.run("claim", "photo.jpg", "--hunt", "parity", "--player", "Ada", "--pin", "4321", "--json")
        #expect(claimed.status == 0, "\(claimed.stderr)")
        let deskAnswer = try #require(try GeoQRProcess.jsonLines(claimed).first { $0["cache"] as? String == "P1" })

        let phoneAnswer = try await Self.claimOnServer(phone, photo: photo)

        #expect(deskAnswer["verdict"] as? String == "claimable")
        for key in ["verdict", "cache", "scanTime", "scanTimeSource", "find", "points", "firstToFind", "card", "message", "locationSource"] {
            #expect("\(deskAnswer[key] ?? "nil")" == "\(phoneAnswer[key] ?? "nil")", "\(key) differs")
        }
        #expect(deskAnswer["scanTime"] as? String == "2026-11-20T10:15:30Z", "the find carries the photo's GPS time")
        let deskFind = try Self.findEvent(desk), phoneFind = try Self.findEvent(phone)
        #expect(deskFind == phoneFind, "the same event body on both ledgers")
        #expect(deskFind.contains("\"time\":1795169730000"), "\(deskFind)")
    }

    /// A JPEG of the cache's code (and, with `withPoster`, of a much larger QR code of a URL
    /// beside it), with GPS position, GPS time and DateTimeOriginal written by exiftool.
    static func scene(_ geoqr: GeoQRProcess, withPoster: Bool) throws {
        let code = try PNGCodec.decode(try geoqr.data("p1.png"))
        var scene = GrayImage(width: 900, height: 700, fill: 170)
        if withPoster {
            let poster = try QRSymbol(encoding: "HTTPS://EXAMPLE.ORG/WELCOME-TO-THE-PARK-CAFE-MENU", level: .H)
                .image(moduleSize: 14, margin: 2)
            for y in 0..<poster.height { for x in 0..<poster.width { scene[x + 20, y + 20] = poster[x, y] } }
        }
        for y in 0..<code.height { for x in 0..<code.width { scene[x + 720, y + 540] = code[x, y] } }
        try JPEGEncoder.encode(scene, quality: 92)
            .write(to: URL(fileURLWithPath: geoqr.path("photo.jpg")))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        p.arguments = ["-q", "-overwrite_original", "-GPSLatitude=40.62795", "-GPSLatitudeRef=N",
                       "-GPSLongitude=8.65992", "-GPSLongitudeRef=W", "-GPSDateStamp=2026:11:20", "-GPSTimeStamp=10:15:30",
                       "-DateTimeOriginal=\(photoTime)", "-OffsetTimeOriginal=+00:00", "photo.jpg"]
        p.currentDirectoryURL = geoqr.workingDirectory
        try p.run()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
    }

    /// The `find-recorded` event's body, from `geoqr ledger show --json`.
    static func findEvent(_ geoqr: GeoQRProcess) throws -> String {
        let shown = try geoqr.run("ledger", "show", "--json")
        let lines = shown.stdout.split(separator: "\n").filter { $0.contains("\"kind\":\"find-recorded\"") }
        let line = try #require(lines.first, "\(shown.stdout)\(shown.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        var body = try #require(object["body"] as? [String: Any])
        // Each event's private part has a salt of its own (so its commitment cannot be guessed):
        // the one thing two ledgers' bodies of the same find never share.
        if var hidden = body["private"] as? [String: Any], hidden["salt"] != nil {
            hidden["salt"] = "…"
            body["private"] = hidden
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Starts `geoqr serve` on a port it picks itself, joins Ada and posts the photo as a phone's
    /// file picker does (multipart, through curl: a client of its own); answers the claim's JSON.
    static func claimOnServer(_ geoqr: GeoQRProcess, photo: Data) async throws -> [String: Any] {
        // Port 0: the server takes a free one and prints it (a port picked here could be taken).
        let server = try RunningServer(geoqr, ["serve", "--hunt", "parity", "--port", "0", "--load-test"])
        defer { server.stop() }
        let base = "http://127.0.0.1:\(server.port)"
        let joined = try curl(["-H", "Content-Type: application/json", "-d", #"{"name":"Ada","pin":"4321"}"#, "\(base)/api/join"])
        let token = try #require(joined["token"] as? String, "the server did not answer a join")
        try photo.write(to: URL(fileURLWithPath: geoqr.path("upload.jpg")))
        return try curl(["-H", "Authorization: Bearer \(token)", "-F", "photo=@\(geoqr.path("upload.jpg"));type=image/jpeg",
                         "\(base)/api/claims/photo"])
    }

    /// curl's answer as a JSON object; empty when nothing answered.
    static func curl(_ arguments: [String]) throws -> [String: Any] {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        p.arguments = ["-s"] + arguments
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}
