import Foundation
import GeoQR
import QRImaging
import Testing

/// A phone's HEIC photo: the code and the GPS position both come from the one file. The HEIC is
/// made here with heif-enc (libheif-examples) and its GPS written by exiftool
/// (libimage-exiftool-perl), the way a phone stores it: an `Exif` metadata item.
@Suite(.enabled(if: ["/usr/bin/heif-enc", "/usr/bin/exiftool"].allSatisfy(FileManager.default.isExecutableFile(atPath:)),
                "needs heif-enc and exiftool (scripts/apt-packages-test.txt)"))
struct ScanHEICTests {
    /// Demo cache A2, "Salt pan view", radius 40 m.
    let saltPans = Coordinate(latitude: 40.62790, longitude: -8.65990)

    static func tool(_ path: String, _ arguments: [String], in directory: URL) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        let message = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(path): \(String(decoding: message, as: UTF8.self))")
    }

    /// IMG.heic: A2's code in a grey scene, GPS at `latitude`, `longitude` in its EXIF.
    func heicPhoto(_ geoqr: GeoQRProcess, _ name: String, latitude: Double, longitude: Double) throws {
        #expect(try geoqr.run("code", "demo", "A2", "-o", "a2.png", "--size", "5").status == 0)
        let code = try PNGCodec.decode(try geoqr.data("a2.png"))
        var scene = GrayImage(width: 640, height: 480, fill: 165)
        for y in 0..<code.height { for x in 0..<code.width { scene[x + 180, y + 80] = code[x, y] } }
        // A colour camera JPEG (a warm cast on the grey) is what heif-enc turns into a HEIC.
        let rgb = scene.pixels.flatMap { v in [UInt8(clamping: Int(v) + 12), v, UInt8(clamping: Int(v) - 10)] }
        try JPEGEncoder.encode(pixels: rgb, width: scene.width, height: scene.height, layout: .rgb, quality: 92)
            .write(to: URL(fileURLWithPath: geoqr.path("scene.jpg")))
        try Self.tool("/usr/bin/heif-enc", ["-q", "85", "-o", name, "scene.jpg"], in: geoqr.workingDirectory)
        try Self.tool("/usr/bin/exiftool", ["-q", "-overwrite_original",
                                            "-GPSLatitude=\(abs(latitude))", "-GPSLatitudeRef=\(latitude < 0 ? "S" : "N")",
                                            "-GPSLongitude=\(abs(longitude))", "-GPSLongitudeRef=\(longitude < 0 ? "W" : "E")",
                                            name], in: geoqr.workingDirectory)
    }

    @Test func aHEICPhotoClaimsFromItsOwnEXIF() throws {
        let geoqr = try GeoQRProcess()
        let near = Coordinate(latitude: 40.62800, longitude: -8.65985)
        try heicPhoto(geoqr, "IMG_0101.heic", latitude: near.latitude, longitude: near.longitude)
        let r = try geoqr.run("scan", "IMG_0101.heic", "--hunt", "demo", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try GeoQRProcess.jsonLines(r).first)
        #expect(json["verdict"] as? String == "claimable")
        #expect(json["locationSource"] as? String == "exif")
        let expected = Geodesic.inverse(from: near, to: saltPans).distance
        #expect(abs((json["distanceM"] as? Double ?? 0) - expected) < 0.5, "\(json)")
    }

    @Test func aHEICTakenFarAwayIsTooFarWhateverAtSays() throws {
        let geoqr = try GeoQRProcess()
        try heicPhoto(geoqr, "IMG_0102.heic", latitude: 40.63060, longitude: -8.65990)
        let r = try geoqr.run("scan", "IMG_0102.heic", "--hunt", "demo", "--at", "40.62790,-8.65990", "--json")
        #expect(r.status == 1)
        let json = try #require(try GeoQRProcess.jsonLines(r).first)
        #expect(json["verdict"] as? String == "too-far" && json["locationSource"] as? String == "exif", "\(json)")
        #expect(abs((json["latitude"] as? Double ?? 0) - 40.63060) < 1e-5, "\(json)")
    }

    @Test func aHEICWithoutGPSHasNoLocation() throws {
        let geoqr = try GeoQRProcess()
        try heicPhoto(geoqr, "IMG_0103.heic", latitude: 40.628, longitude: -8.6599)
        try Self.tool("/usr/bin/exiftool", ["-q", "-overwrite_original", "-gps:all=", "IMG_0103.heic"], in: geoqr.workingDirectory)
        let r = try geoqr.run("scan", "IMG_0103.heic", "--hunt", "demo")
        #expect(r.status == 1)
        #expect(r.stdout.contains("no-location"), "\(r.stdout)")
    }
}
