import Foundation
import Testing

/// The built `geoqr` binary, run as a user would: the one beside the test bundle (in whichever
/// build folder, `.build-asan` included), else `.build/debug`.
@Suite(.serialized) struct CommandLineTests {
    let geoqr: String = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("geoqr")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests.path }
        return packageRoot.appendingPathComponent(".build/debug/geoqr").path
    }()

    @Test func importThenExport() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: "\(dir)/caches", withIntermediateDirectories: true)
        let imported = try run(geoqr, ["import", fixture("pq-101.gpx"), "-o", "caches/canals.json", "--json"], cwd: dir)
        #expect(imported.status == 0, "\(imported.stderr)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])
        #expect(summary["hunt"] as? String == "CANALS")
        let report = try #require(summary["report"] as? [String: Any])
        #expect(report["caches"] as? Int == 2)
        #expect((report["skipped"] as? [[String: Any]])?.first?["code"] as? String == "GC3ARCH")
        #expect(FileManager.default.fileExists(atPath: "\(dir)/caches/canals.geocaching.json"))

        let listed = try run(geoqr, ["caches", "list", "canals"], cwd: dir)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("GC1BKP3"))

        let exported = try run(geoqr, ["export", "canals", "--format", "gpx", "-o", "canals.gpx"], cwd: dir)
        #expect(exported.status == 0, "\(exported.stderr)")
        let gpx = try String(contentsOfFile: "\(dir)/canals.gpx", encoding: .utf8)
        #expect(gpx.contains("<name>PK1BKP3</name>"))          // waypoint back from the sidecar
        #expect(gpx.contains("<groundspeak:container>Small</groundspeak:container>"))

        let geojson = try run(geoqr, ["export", "canals", "--format", "geojson"], cwd: dir)
        #expect(geojson.status == 0)
        #expect(geojson.stdout.contains("\"FeatureCollection\""))
    }

    @Test func malformedGPXFailsWithOneLineAndNoFile() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        write("<?xml version=\"1.0\"?>\n<gpx version=\"1.0\" creator=\"x\" xmlns=\"http://www.topografix.com/GPX/1/0\">\n<wpt lat=\"1\" lon=\"1\"><name>GC1</wpt>\n</gpx>\n", to: "\(dir)/bad.gpx")
        let r = try run(geoqr, ["import", "bad.gpx", "-o", "out.json"], cwd: dir)
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("geoqr: bad.gpx:3: is not well-formed XML"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/out.json"))
        #expect(!FileManager.default.fileExists(atPath: "\(dir)/out.geocaching.json"))
    }

}
