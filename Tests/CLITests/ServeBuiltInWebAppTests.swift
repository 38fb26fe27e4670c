import Foundation
import Testing

/// `geoqr serve` carries its web app: started in a folder with no assets/ (only the hunt), it
/// serves the pages, the manifest and the API description with their types, and a phone that
/// has a file gets a 304. `--web DIR` still serves a folder on disk instead.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl (scripts/apt-packages-test.txt)"))
struct ServeBuiltInWebAppTests {
    static let assets = GeoQRProcess.packageRoot.appendingPathComponent("assets")

    @Test func servesTheBuiltInWebAppFromAFolderWithNoAssets() throws {
        let geoqr = try GeoQRProcess()
        #expect(try FileManager.default.contentsOfDirectory(atPath: geoqr.workingDirectory.path) == ["caches"])
        let server = try RunningServer(geoqr, ["serve", "--hunt", "demo", "--port", "0", "--load-test"])
        defer { server.stop() }
        let expected = [
            ("/", "text/html", "web/index.html"),
            ("/app.js", "text/javascript", "web/app.js"),
            ("/manifest.webmanifest", "application/manifest+json", "web/manifest.webmanifest"),
            ("/favicon.ico", "image/vnd.microsoft.icon", "web/favicon.ico"),
            ("/icons/icon-192.png", "image/png", "web/icons/icon-192.png"),
            ("/api/openapi.yaml", "application/yaml; charset=utf-8", "openapi.yaml"),
        ]
        for (path, type, file) in expected {
            let reply = try server.get(path)
            #expect(reply.status == 200, "\(path)")
            #expect(reply.headers["content-type"] == type, "\(path)")
            #expect(reply.body == (try Data(contentsOf: Self.assets.appendingPathComponent(file))), "\(path)")
        }
        let script = try server.get("/app.js")
        #expect(script.headers["cache-control"] == "no-cache")
        let etag = try #require(script.headers["etag"])
        let again = try server.get("/app.js", ["-H", "If-None-Match: \(etag)"])
        #expect(again.status == 304 && again.body.isEmpty)
        let head = try server.get("/app.js", ["--head"])
        #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == "\(script.body.count)")
        let missing = try server.get("/nothing.js")
        #expect(missing.status == 404)
    }

    @Test func webServesAFolderInstead() throws {
        let geoqr = try GeoQRProcess()
        try FileManager.default.createDirectory(atPath: geoqr.path("pages"), withIntermediateDirectories: true)
        try geoqr.write("<p>my draft</p>", to: "pages/index.html")
        let server = try RunningServer(geoqr, ["serve", "--hunt", "demo", "--port", "0", "--load-test", "--web", "pages"])
        defer { server.stop() }
        #expect(String(decoding: try server.get("/").body, as: UTF8.self) == "<p>my draft</p>")
        #expect(try server.get("/app.js").status == 404, "nothing but the folder is served")
        #expect(try server.get("/api/openapi.yaml").status == 404, "no openapi.yaml beside pages/")

        let empty = try ServeMapOptionsTests.runBriefly(geoqr, ["serve", "--hunt", "demo", "--port", "0", "--load-test", "--web", "caches"])
        #expect(empty.status == 1)
        #expect(empty.stderr.split(separator: "\n").last.map(String.init) == "geoqr: --web: caches has no index.html (a web app folder is like "
                + "assets/web of a GeoQR checkout); without it geoqr serves the web app built into it")
        #expect(!empty.stdout.contains("serving"), "nothing listened")
    }
}

/// `geoqr serve` on a free loopback port (`--port 0`), asked with curl (a client of its own).
final class RunningServer {
    struct Reply {
        let status: Int
        /// Header names in lower case.
        let headers: [String: String]
        let body: Data
    }

    let process: Process
    let port: Int

    /// Starts geoqr with `arguments` (GEOQR_WEB unset) and waits for its banner's address.
    init(_ geoqr: GeoQRProcess, _ arguments: [String]) throws {
        process = geoqr.process(arguments)
        process.environment?.removeValue(forKey: "GEOQR_WEB")
        let out = Pipe(), collected = ServeMapOptionsTests.Collected()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        out.fileHandleForReading.readabilityHandler = { collected.add(out: $0.availableData) }
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        var port: Int?
        while port == nil, process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            if let match = collected.out.firstMatch(of: /http:\/\/localhost:(\d+)\//) { port = Int(match.1) }
        }
        out.fileHandleForReading.readabilityHandler = nil
        guard let port else {
            if process.isRunning { process.terminate() }
            throw GeoQRFailure("geoqr serve printed no address: \(collected.out)")
        }
        self.port = port
    }

    /// Stops the server as Ctrl-C does.
    func stop() {
        process.interrupt()
        process.waitUntilExit()
    }

    /// `path` with curl, and any more of curl's `options` (a header, --head).
    func get(_ path: String, _ options: [String] = []) throws -> Reply {
        let curl = Process(), out = Pipe()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-sS", "--include", "--max-time", "10"] + options + ["http://127.0.0.1:\(port)\(path)"]
        curl.standardOutput = out
        try curl.run()
        let answer = out.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        guard let end = answer.firstRange(of: Data("\r\n\r\n".utf8)) else { throw GeoQRFailure("\(path): no answer") }
        let lines = String(decoding: answer[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let status = Int(lines[0].split(separator: " ").dropFirst().first ?? "") ?? 0
        return Reply(status: status, headers: headers, body: Data(answer[end.upperBound...]))
    }
}

struct GeoQRFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
