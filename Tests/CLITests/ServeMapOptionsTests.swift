import Foundation
import GRDB
import Testing

/// `geoqr serve`'s map options as a game master meets them: a wrong MBTiles file stops the
/// start with one line naming it, before anything listens; clashing options fail validation;
/// missing Leaflet costs only the map, with one line saying so.
@Suite struct ServeMapOptionsTests {
    @Test func badMBTilesFilesStopTheStartWithOneLine() throws {
        let geoqr = try GeoQRProcess()
        try geoqr.write(String(repeating: "just text\n", count: 200), to: "text.mbtiles")
        try DatabaseQueue(path: geoqr.path("other.sqlite")).write { try $0.execute(sql: "CREATE TABLE things (a)") }
        let cases = [
            ("missing.mbtiles", "no such file"),
            ("text.mbtiles", "is not an SQLite database, so not an MBTiles file"),
            ("other.sqlite", "has no `tiles` table, so it is not an MBTiles file"),
        ]
        for (file, problem) in cases {
            let result = try Self.runBriefly(geoqr, ["serve", "--hunt", "demo", "--port", "0", "--load-test", "--mbtiles", file])
            #expect(result.status == 1, "\(file): \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(file): \(result.stderr)")
            #expect(lines.first == "geoqr: --mbtiles \(file): \(problem)"[...], "\(file)")
            #expect(!result.stdout.contains("serving"), "nothing listened")
        }
    }

    @Test func clashingMapOptionsFailValidation() throws {
        let geoqr = try GeoQRProcess()
        let both = try Self.runBriefly(geoqr, ["serve", "--hunt", "demo", "--tiles", "https://tile.openstreetmap.org/{z}/{x}/{y}.png",
                                               "--mbtiles", "area.mbtiles"])
        #expect(both.status != 0 && both.stderr.contains("use either --tiles URL-TEMPLATE or --mbtiles FILE, not both"))
        let noCredit = try Self.runBriefly(geoqr, ["serve", "--hunt", "demo", "--tiles", "https://tiles.example.org/{z}/{x}/{y}.png"])
        #expect(noCredit.status != 0 && noCredit.stderr.contains("need --tiles-attribution TEXT"))
        let noY = try Self.runBriefly(geoqr, ["serve", "--hunt", "demo", "--tiles", "https://tile.openstreetmap.org/{z}/{x}.png"])
        #expect(noY.status != 0 && noY.stderr.contains("has no {y}"))
    }

    @Test func missingLeafletIsOneLineAndTheServerStillStarts() throws {
        let geoqr = try GeoQRProcess()
        let result = try Self.runBriefly(geoqr, ["serve", "--hunt", "demo", "--port", "0", "--load-test", "--leaflet", geoqr.path("nowhere")],
                                         until: "serving")
        #expect(result.stdout.contains("serving"), "\(result.stdout)\(result.stderr)")
        let notes = result.stderr.split(separator: "\n").filter { $0.contains("leaflet") }
        #expect(notes == ["geoqr: no map: \(geoqr.path("nowhere")) has no leaflet.js (install libjs-leaflet, or pass --leaflet DIR)"[...]])
    }

    /// Runs geoqr for at most 20 s; with `until`, stops it (SIGINT) once standard output holds
    /// that text.
    static func runBriefly(_ geoqr: GeoQRProcess, _ arguments: [String], until marker: String? = nil) throws -> GeoQRProcess.Result {
        let process = geoqr.process(arguments)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let collected = Collected()
        out.fileHandleForReading.readabilityHandler = { collected.add(out: $0.availableData) }
        err.fileHandleForReading.readabilityHandler = { collected.add(err: $0.availableData) }
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline {
            if let marker, collected.out.contains(marker) { process.interrupt() }
            Thread.sleep(forTimeInterval: 0.05)
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        out.fileHandleForReading.readabilityHandler = nil
        err.fileHandleForReading.readabilityHandler = nil
        collected.add(out: out.fileHandleForReading.readDataToEndOfFile())
        collected.add(err: err.fileHandleForReading.readDataToEndOfFile())
        return GeoQRProcess.Result(status: process.terminationStatus, stdout: collected.out, stderr: collected.err,
                                   stdoutData: Data(collected.out.utf8))
    }

    /// What a running process has written so far, from its pipes' handlers.
    final class Collected: @unchecked Sendable {   // both buffers only under `lock`
        private let lock = NSLock()
        private var outData = Data(), errData = Data()
        func add(out data: Data) { lock.withLock { outData.append(data) } }
        func add(err data: Data) { lock.withLock { errData.append(data) } }
        var out: String { lock.withLock { String(decoding: outData, as: UTF8.self) } }
        var err: String { lock.withLock { String(decoding: errData, as: UTF8.self) } }
    }
}

/// `geoqr serve` on a public server: the public URL in the links it prints, the proxy's
/// address checked before anything listens, and `geoqr print` reading the same setting.
@Suite struct ServePublicOptionsTests {
    @Test func thePublicURLIsWhatTheBannerPrintsAndBadOnesAreOneLine() throws {
        let geoqr = try GeoQRProcess()
        let result = try ServeMapOptionsTests.runBriefly(geoqr, [
            "serve", "--hunt", "demo", "--port", "0", "--public-url", "https://hunt.example.org/", "--behind-proxy", "127.0.0.1",
        ], until: "players join at")
        #expect(result.stdout.contains("serving Campus Quest: University of Aveiro (DEMO) at https://hunt.example.org/"), "\(result.stdout)")
        #expect(result.stdout.contains("game master (keep private): https://hunt.example.org/admin.html#token="))
        #expect(result.stdout.contains("players join at https://hunt.example.org/ :"))
        #expect(result.stdout.contains("for the reverse proxy"))
        let notAnAddress = try ServeMapOptionsTests.runBriefly(geoqr, ["serve", "--hunt", "demo", "--behind-proxy", "proxy.local"])
        #expect(notAnAddress.status != 0 && notAnAddress.stderr.contains("--behind-proxy proxy.local: not an IP address"), "\(notAnAddress.stderr)")
        let withPath = try ServeMapOptionsTests.runBriefly(geoqr, ["serve", "--hunt", "demo", "--public-url", "https://hunt.example.org/hunt"])
        #expect(withPath.status != 0 && withPath.stderr.contains("give only the scheme, host and port"), "\(withPath.stderr)")
    }

    @Test func printReadsThePublicURLFromTheEnvironment() throws {
        let geoqr = try GeoQRProcess()
        let printed = try geoqr.run(arguments: ["print", "demo", "-o", "s.pdf", "--json"],
                                    environment: ["GEOQR_PUBLIC_URL": "https://hunt.example.org"])
        #expect(printed.status == 0, "\(printed.stderr)")
        let pdftotext = Process()
        pdftotext.executableURL = URL(fileURLWithPath: "/usr/bin/pdftotext")
        pdftotext.arguments = [geoqr.path("s.pdf"), "-"]
        let out = Pipe()
        pdftotext.standardOutput = out
        try pdftotext.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        pdftotext.waitUntilExit()
        #expect(text.contains("Can't scan? Type A1-"), "every card carries its typed code: \(text.prefix(400))")
        let bad = try geoqr.run(arguments: ["print", "demo", "-o", "s.pdf"], environment: ["GEOQR_PUBLIC_URL": "ftp://x"])
        #expect(bad.status != 0 && bad.stderr.contains("$GEOQR_PUBLIC_URL: ftp://x: not an http(s) URL"), "\(bad.stderr)")
    }
}
