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
}
