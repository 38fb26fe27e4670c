import Foundation
import Testing

/// Courses at the game master's desk: listed with the caches, exported and reported as IOF XML
/// 3.0 (checked with xmllint against the IOF's schema), split tables, mass start.
@Suite struct CourseCommandTests {
    static let schema = GeoQRProcess.packageRoot.appendingPathComponent("Tests/InterchangeTests/Fixtures/iof/IOF.xsd").path

    func validIOF(_ geoqr: GeoQRProcess, _ text: String, _ name: String) throws -> Bool {
        try geoqr.write(text, to: name)
        let lint = Process()
        lint.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        lint.arguments = ["--noout", "--schema", Self.schema, geoqr.path(name)]
        let err = Pipe()
        lint.standardError = err
        try lint.run()
        lint.waitUntilExit()
        let said = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(said.contains("validates"), "\(name): \(said)")
        return lint.terminationStatus == 0
    }

    @Test func parkOsCoursesAreListedExportedAndReportedAsValidIOF() throws {
        let geoqr = try GeoQRProcess()
        let list = try geoqr.run("caches", "list", "park-o")
        #expect(list.status == 0 && list.stdout.contains("SCORE30  Score 30       score  mass start  K1 K2 K3 K4 K5 K6  F1      30 min, -5/min over"),
                "\(list.stdout)")

        let courses = try geoqr.run("export", "park-o", "--format", "iof-courses")
        #expect(courses.status == 0, "\(courses.stderr)")
        #expect(courses.stdout.contains("<CourseData") && courses.stdout.contains("<Name>Yellow (line)</Name>"))
        #expect(try validIOF(geoqr, courses.stdout, "courses.xml"))
        let demo = try geoqr.run("export", "demo", "--format", "iof-courses")
        #expect(demo.status != 0 && demo.stderr.contains("has no courses"), "\(demo.stderr)")

        // The mass start, a runner on the line course, and the result list.
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "park-o", "--pin", "4321", "--team", "Foxes").status == 0)
        let started = try geoqr.run("gm", "start-course", "score30", "--hunt", "park-o", "--json")
        #expect(started.status == 0 && started.stdout.contains("\"course\" : \"SCORE30\""), "\(started.stdout)\(started.stderr)")
        let line = try geoqr.run("gm", "start-course", "yellow", "--hunt", "park-o")
        #expect(line.status != 0 && line.stderr.contains("course YELLOW starts with its start code"), "\(line.stderr)")
        let results = try geoqr.run("results", "--hunt", "park-o", "--format", "iof")
        #expect(results.status == 0 && results.stdout.contains("<ResultList") && results.stdout.contains("status=\"Snapshot\""),
                "\(results.stderr)")
        #expect(try validIOF(geoqr, results.stdout, "results.xml"))
        let splits = try geoqr.run("results", "--hunt", "park-o", "--what", "splits", "--format", "text")
        #expect(splits.status == 0 && splits.stdout.contains("Score 30 (SCORE30, score)\n  no runners yet"), "\(splits.stdout)")
        let wrong = try geoqr.run("results", "--hunt", "park-o", "--what", "finds", "--format", "iof")
        #expect(wrong.status != 0 && wrong.stderr.contains("--format iof prints the courses' result list"), "\(wrong.stderr)")
    }

    @Test func anIOFCourseFileImportsAndParkORoundTrips() throws {
        let geoqr = try GeoQRProcess()
        // Purple Pen's shape (see the fixture's README): one start shared by three courses.
        let fixture = GeoQRProcess.packageRoot.appendingPathComponent("Tests/InterchangeTests/Fixtures/iof/purple-pen-style.xml").path
        let imported = try geoqr.run("import", fixture, "-o", "caches/pp.json", "--id", "PP", "--json")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("\"courses\" : [") && imported.stdout.contains("S1-2 (Orange)"), "\(imported.stdout)")
        let list = try geoqr.run("caches", "list", "pp")
        #expect(list.status == 0 && list.stdout.contains("S1-2") && list.stdout.contains("score"), "\(list.stdout)\(list.stderr)")
        // The three starts share a place by design: no warning that their circles overlap.
        #expect(!list.stderr.contains("overlaps"), "\(list.stderr)")

        // park-o out as IOF and back in: the same caches (ids, places) and the same courses.
        let exported = try geoqr.run("export", "park-o", "--format", "iof-courses", "-o", "park.xml")
        #expect(exported.status == 0, "\(exported.stderr)")
        let back = try geoqr.run("import", "park.xml", "-o", "caches/again.json", "--id", "AGAIN", "--radius", "30")
        #expect(back.status == 0 && back.stdout.contains("→ caches/again.json"), "\(back.stdout)\(back.stderr)")
        func courses(_ hunt: String) throws -> String {
            let out = try geoqr.run("caches", "list", hunt)
            #expect(out.status == 0, "\(out.stderr)")
            return out.stdout.split(separator: "\n").filter { $0.contains("line ") || $0.contains("score ") }
                .map { $0.split(separator: " ", omittingEmptySubsequences: true).filter { $0 != "line" && $0 != "score" }.prefix(1).joined() }
                .joined(separator: ",")
        }
        #expect(try courses("park-o") == (try courses("again")))
        let again = try String(contentsOfFile: geoqr.path("caches/again.json"), encoding: .utf8)
        #expect(again.contains("\"radius\": 30") && again.contains("\"kind\": \"score\"") && again.contains("\"penaltyPerMinute\": 5"), "\(again)")

        // A file that is neither: one line naming it, nothing written.
        try geoqr.write("<?xml version=\"1.0\"?><CourseData xmlns=\"http://www.orienteering.org/datastandard/3.0\"><Event><Name>x</Name></Event></CourseData>",
                        to: "bad.xml")
        let bad = try geoqr.run("import", "bad.xml", "-o", "caches/bad.json")
        #expect(bad.status != 0 && bad.stderr.split(separator: "\n").count == 1 && bad.stderr.contains("bad.xml"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: geoqr.path("caches/bad.json")))
    }
}
