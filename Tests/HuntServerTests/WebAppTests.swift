import Foundation
import HTTPTypes
@testable import HuntServer
import Testing

/// The web app built into the server (the EmbedWebApp plugin) is the checkout's assets/, byte
/// for byte, and is served as `geoqr serve --web assets/web` serves the folder: the same types,
/// bodies and 404s; built in, each file also has an ETag from its bytes (a 304 when unchanged).
@Suite("The web app, built in or from a folder")
struct WebAppTests {
    static let assets = URL(fileURLWithPath: Harness.webFolder).deletingLastPathComponent()

    /// Every file under assets/web (as `web/…`) and assets/openapi.yaml, by path.
    static func filesOnDisk() throws -> [String: Data] {
        var files = ["openapi.yaml": try Data(contentsOf: assets.appendingPathComponent("openapi.yaml"))]
        let web = URL(fileURLWithPath: Harness.webFolder)
        let walk = try #require(FileManager.default.enumerator(at: web, includingPropertiesForKeys: [.isRegularFileKey],
                                                               options: [.skipsHiddenFiles]))
        for case let url as URL in walk where try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
            let path = String(url.standardizedFileURL.path.dropFirst(web.standardizedFileURL.path.count + 1))
            files["web/" + path] = try Data(contentsOf: url)
        }
        return files
    }

    @Test func theBuiltInAppIsTheAssetsFolderByteForByte() throws {
        let disk = try Self.filesOnDisk()
        #expect(disk.keys.contains("web/index.html") && disk.keys.contains("web/icons/icon-192.png"))
        guard case .builtIn(let held) = WebApp.builtIn.source else { Issue.record("not built in"); return }
        #expect(Set(held.keys) == Set(disk.keys), "rebuild after adding or removing a file in assets/web")
        for (path, bytes) in disk {
            #expect(held[path].map { Data($0.bytes) } == bytes, "\(path) differs: the plugin did not rerun")
            #expect(WebApp.builtIn.contents(of: path).map { Data($0) } == bytes)
        }
        #expect(WebApp.builtIn.contents(of: "web/nothing.js") == nil)
        #expect(WebApp.builtIn.folder == nil)
    }

    @Test func builtInAndFolderServeTheSameFilesAndBuiltInHasETags() async throws {
        let disk = try Self.filesOnDisk()
        let folder = try WebApp(folder: Harness.webFolder)
        #expect(folder.folder == Harness.webFolder)
        let paths = disk.keys.filter { $0.hasPrefix("web/") }.map { String($0.dropFirst(3)) }.sorted() + ["/"]
        let fromFolder = try await Harness { $0.webApp = folder }.app.test(.live) { client in
            var served: [String: Served] = [:]
            for path in paths + ["/nothing.js", "/api/index.html"] {
                served[path] = try await client.execute(uri: path, method: .get) { Served($0) }
            }
            let description = try await client.call(.get, "/api/openapi.yaml")
            #expect(description.status == .ok && Data(description.text.utf8) == disk["openapi.yaml"])
            return served
        }
        try await Harness().app.test(.live) { client in
            for path in paths {
                let file = try await client.execute(uri: path, method: .get) { $0 }
                let expected = try #require(disk["web" + (path == "/" ? "/index.html" : path)])
                #expect(file.status == .ok && Data(buffer: file.body) == expected, "\(path)")
                #expect(file.headers[.contentType] != nil && file.headers[.contentType] == fromFolder[path]?.type, "\(path)")
                #expect(fromFolder[path]?.body == expected, "\(path) from the folder")
                #expect(file.headers[.cacheControl] == "no-cache", "\(path)")
                let etag = try #require(file.headers[.eTag], "\(path)")
                let again = try await client.execute(uri: path, method: .get, headers: [.ifNoneMatch: etag]) { $0 }
                #expect(again.status == .notModified && again.body.readableBytes == 0, "\(path)")
                let head = try await client.execute(uri: path, method: .head) { $0 }
                #expect(head.status == .ok && head.body.readableBytes == 0 && head.headers[.contentLength] == "\(expected.count)", "\(path)")
                #expect(head.headers[.eTag] == etag && head.headers[.contentType] == file.headers[.contentType])
            }
            for missing in ["/nothing.js", "/api/index.html"] {
                let reply = try await client.execute(uri: missing, method: .get) { Served($0) }
                #expect(reply.status == .notFound && reply.status == fromFolder[missing]?.status && reply.json != nil, "\(missing)")
                #expect(reply.type == fromFolder[missing]?.type && reply.json == fromFolder[missing]?.json, "\(missing): as from the folder")
            }
            #expect(try await client.call(.get, "/%2e%2e/openapi.yaml").status != .ok)
            #expect(try await client.call(.get, "/icons/..%2Findex.html").status != .ok)
            #expect(try await client.call(.post, "/index.html").status != .ok)
            let description = try await client.call(.get, "/api/openapi.yaml")
            #expect(description.status == .ok && Data(description.text.utf8) == disk["openapi.yaml"])
            #expect(description.headers[.contentType] == "application/yaml; charset=utf-8")
        }
    }

    /// What a request got: enough to compare two servers' answers.
    struct Served: Sendable {
        let status: HTTPResponse.Status
        let type: String?
        let body: Data
        /// The body as JSON (an error's), for comparing without caring for the order of keys.
        var json: NSDictionary? { (try? JSONSerialization.jsonObject(with: body)) as? NSDictionary }

        init(_ response: TestResponse) {
            status = response.status
            type = response.headers[.contentType]
            body = Data(buffer: response.body)
        }
    }

    /// A folder is read at every request, so a changed page shows on the next reload; a folder
    /// with no web app is refused when the server starts, naming it.
    @Test func aFolderIsReadAtEveryRequest() async throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("geoqr-web-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        let pages = base.appendingPathComponent("pages")
        try FileManager.default.copyItem(atPath: Harness.webFolder, toPath: pages.path)
        try Data("openapi: 3.1.0 # mine\n".utf8).write(to: base.appendingPathComponent("openapi.yaml"))
        let app = try WebApp(folder: pages.path)
        try await Harness { $0.webApp = app }.app.test(.live) { client in
            try Data("<p>first</p>".utf8).write(to: pages.appendingPathComponent("index.html"))
            #expect(try await client.call(.get, "/").text == "<p>first</p>")
            try Data("<p>second draft</p>".utf8).write(to: pages.appendingPathComponent("index.html"))
            #expect(try await client.call(.get, "/").text == "<p>second draft</p>")
            #expect(try await client.call(.get, "/api/openapi.yaml").text == "openapi: 3.1.0 # mine\n")
        }
        #expect(app.contents(of: "web/../openapi.yaml") == nil)
        #expect(throws: WebAppError.self) { try WebApp(folder: base.path) }
        do { _ = try WebApp(folder: "/nonexistent/pages") } catch {
            #expect(error.description == "/nonexistent/pages has no index.html (a web app folder is like assets/web of a GeoQR checkout)")
        }
    }
}
