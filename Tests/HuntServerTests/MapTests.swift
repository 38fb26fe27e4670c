import Foundation
import GRDB
import HTTPTypes
import Hummingbird
@testable import HuntServer
import QRImaging
import Testing

/// The players' map as the server serves it: its configuration, Leaflet, MBTiles tiles (with
/// MBTiles' south-up rows turned into Leaflet's north-down ones) and the policy that lets an
/// online basemap's images in.
@Suite struct MapTests {
    /// A 1×1 grey PNG, told apart by its grey.
    static func png(_ grey: UInt8) throws -> Data { try PNGCodec.encode(GrayImage(width: 1, height: 1, fill: grey)) }

    /// An MBTiles file at `path` with `metadata` and `tiles` (zoom, column, TMS row, bytes).
    static func makeMBTiles(_ path: String, metadata: [String: String], tiles: [(Int, Int, Int, Data)]) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE metadata (name TEXT, value TEXT);
                CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
                """)
            for (name, value) in metadata { try db.execute(literal: "INSERT INTO metadata VALUES (\(name), \(value))") }
            for (z, x, row, data) in tiles { try db.execute(literal: "INSERT INTO tiles VALUES (\(z), \(x), \(row), \(data))") }
        }
    }

    static func temporaryFile(_ name: String) -> String {
        NSTemporaryDirectory() + "geoqr-map-\(UUID().uuidString)-\(name)"
    }

    @Test func mbtilesTilesAreServedNorthDown() async throws {
        let path = Self.temporaryFile("area.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let north = try Self.png(10), south = try Self.png(200)
        // At zoom 1, TMS row 1 is the northern half: Leaflet's y = 0.
        try Self.makeMBTiles(path, metadata: ["format": "png", "attribution": "Tiles © Test", "minzoom": "0", "maxzoom": "1",
                                              "bounds": "-8.7,40.6,-8.6,40.7", "name": "Aveiro"],
                             tiles: [(1, 0, 1, north), (1, 0, 0, south)])
        let tiles = try MBTiles(path: path)
        let harness = try Harness { $0.basemap = .mbtiles(tiles, attribution: nil) }
        try await harness.app.test(.live) { client in
            let top = try await client.call(.get, "/tiles/1/0/0")
            #expect(top.status == .ok)
            #expect(top.headers[.contentType] == "image/png")
            #expect(top.headers[.cacheControl]?.contains("max-age=") == true)
            let bottom = try await client.execute(uri: "/tiles/1/0/1", method: .get) { Data(buffer: $0.body) }
            #expect(bottom == south)
            let topBytes = try await client.execute(uri: "/tiles/1/0/0", method: .get) { Data(buffer: $0.body) }
            #expect(topBytes == north)

            let missing = try await client.call(.get, "/tiles/1/1/0")
            #expect(missing.status == .notFound && missing.error == "no-tile")
            let outside = try await client.call(.get, "/tiles/1/5/0")
            #expect(outside.status == .notFound && outside.error == "no-tile")
            for bad in ["/tiles/a/0/0", "/tiles/1/0/0.png", "/tiles/1/-1/0", "/tiles/99999999999/0/0"] {
                let reply = try await client.call(.get, bad)
                #expect(reply.status == .badRequest && reply.error == "bad-tile", "\(bad)")
            }

            let map = try await client.call(.get, "/api/map")
            #expect(map.status == .ok)
            let layer = try #require(map["tiles"] as? [String: Any])
            #expect(layer["url"] as? String == "/tiles/{z}/{x}/{y}")
            #expect(layer["attribution"] as? String == "Tiles © Test")
            #expect(layer["minZoom"] as? Int == 0 && layer["maxZoom"] as? Int == 1)
            #expect(layer["bounds"] as? [Double] == [-8.7, 40.6, -8.6, 40.7])
            #expect(map["leaflet"] as? Bool == false)
        }
    }

    @Test func mapWithoutBasemapOrLeaflet() async throws {
        let harness = try Harness()
        try await harness.app.test(.live) { client in
            let map = try await client.call(.get, "/api/map")
            #expect(map.status == .ok)
            #expect(map.text.replacingOccurrences(of: " ", with: "").contains(#""tiles":null"#))
            #expect(map["leaflet"] as? Bool == false)
            let tiles = try await client.call(.get, "/tiles/0/0/0")
            #expect(tiles.status == .notFound && tiles.error == "no-tiles")
            let script = try await client.call(.get, "/vendor/leaflet/leaflet.js")
            #expect(script.status == .notFound && script.error == "no-leaflet")
            let csp = try #require(map.headers[.contentSecurityPolicy])
            #expect(csp.contains("img-src 'self' data: blob:;"))
        }
    }

    @Test func onlineTilesAreAllowedByThePolicy() async throws {
        let server = try TileServer(template: "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        let harness = try Harness { $0.basemap = .online(server) }
        try await harness.app.test(.live) { client in
            let map = try await client.call(.get, "/api/map")
            let layer = try #require(map["tiles"] as? [String: Any])
            #expect(layer["url"] as? String == "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
            #expect(layer["attribution"] as? String == "© OpenStreetMap contributors")
            #expect(layer["maxZoom"] as? Int == 19 && layer["bounds"] == nil)
            let index = try await client.call(.get, "/")
            let csp = try #require(index.headers[.contentSecurityPolicy])
            #expect(csp.contains("img-src 'self' data: blob: https://tile.openstreetmap.org;"))
            #expect(csp.contains("connect-src 'self';"), "only images may come from the tile server")
        }
    }

    @Test func tileTemplatesAreChecked() throws {
        #expect(try TileServer(template: "https://{s}.tile.example.org/{z}/{x}/{y}.png", attribution: "Ex").origin
                == "https://*.tile.example.org")
        #expect(try TileServer(template: "http://localhost:8081/{z}/{x}/{y}", attribution: "Mine").origin == "http://localhost:8081")
        #expect(throws: TileServerError.self) { try TileServer(template: "https://tile.openstreetmap.org/{z}/{x}.png") }
        #expect(throws: TileServerError.self) { try TileServer(template: "ftp://tiles.example.org/{z}/{x}/{y}.png", attribution: "x") }
        #expect(throws: TileServerError.self) { try TileServer(template: "https://tiles.example.org/{z}/{x}/{y}.png") }
        #expect(throws: TileServerError.self) {
            try TileServer(template: "https://tiles.example.org;script-src/{z}/{x}/{y}.png", attribution: "x")
        }
    }

    @Test func badMBTilesFilesAreNamedWithWhatIsWrong() throws {
        let missing = Self.temporaryFile("none.mbtiles")
        #expect(throws: MBTilesError.self) { try MBTiles(path: missing) }
        do { _ = try MBTiles(path: missing) } catch { #expect(error.description == "\(missing): no such file") }

        let text = Self.temporaryFile("text.mbtiles")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: text))
        defer { try? FileManager.default.removeItem(atPath: text) }
        do { _ = try MBTiles(path: text); Issue.record("a text file opened") } catch {
            #expect(error.description == "\(text): is not an SQLite database, so not an MBTiles file")
        }

        let other = Self.temporaryFile("other.sqlite")
        defer { try? FileManager.default.removeItem(atPath: other) }
        try DatabaseQueue(path: other).write { try $0.execute(sql: "CREATE TABLE things (a)") }
        do { _ = try MBTiles(path: other); Issue.record("an SQLite file without tiles opened") } catch {
            #expect(error.description == "\(other): has no `tiles` table, so it is not an MBTiles file")
        }

        let vector = Self.temporaryFile("vector.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: vector) }
        try Self.makeMBTiles(vector, metadata: ["format": "pbf"], tiles: [(0, 0, 0, Data([1, 2, 3]))])
        do { _ = try MBTiles(path: vector); Issue.record("vector tiles opened") } catch {
            #expect(error.description.contains("vector tiles (pbf)"))
        }

        // No metadata at all: zooms from the tiles, format from the bytes.
        let bare = Self.temporaryFile("bare.mbtiles")
        defer { try? FileManager.default.removeItem(atPath: bare) }
        try Self.makeMBTiles(bare, metadata: [:], tiles: [(3, 1, 1, try Self.png(1)), (5, 1, 1, try Self.png(2))])
        let tiles = try MBTiles(path: bare)
        #expect(tiles.metadata == .init(format: .png, attribution: nil, minZoom: 3, maxZoom: 5, bounds: nil))
    }

    @Test func leafletIsServedFromDebiansFolder() async throws {
        let leaflet = try Leaflet(folder: Leaflet.debianFolder)
        let minified = try #require(FileManager.default.contents(atPath: Leaflet.debianFolder + "/leaflet.min.js"))
        let harness = try Harness { $0.leaflet = leaflet }
        try await harness.app.test(.live) { client in
            let script = try await client.execute(uri: "/vendor/leaflet/leaflet.js", method: .get) { $0 }
            #expect(script.status == .ok)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(Data(buffer: script.body) == minified)
            #expect(script.headers[.cacheControl] == "public, max-age=604800")
            let etag = try #require(script.headers[.eTag])
            let again = try await client.execute(uri: "/vendor/leaflet/leaflet.js", method: .get, headers: [.ifNoneMatch: etag]) { $0 }
            #expect(again.status == .notModified && again.body.readableBytes == 0)

            let css = try await client.call(.get, "/vendor/leaflet/leaflet.css")
            #expect(css.status == .ok && css.headers[.contentType] == "text/css; charset=utf-8")
            let marker = try await client.call(.get, "/vendor/leaflet/images/marker-icon.png")
            #expect(marker.status == .ok && marker.headers[.contentType] == "image/png")
            let other = try await client.call(.get, "/vendor/leaflet/leaflet.esm.js")
            #expect(other.status == .notFound)
            let escape = try await client.call(.get, "/vendor/leaflet/images/..%2F..%2Fleaflet.js")
            #expect(escape.status != .ok)

            let map = try await client.call(.get, "/api/map")
            #expect(map["leaflet"] as? Bool == true)
        }
        #expect(throws: LeafletError.self) { try Leaflet(folder: "/nonexistent") }
    }

    @Test func iconsAndManifestAreServedWithTheirTypes() async throws {
        let harness = try Harness()
        try await harness.app.test(.live) { client in
            let icon = try await client.execute(uri: "/favicon.ico", method: .get) { $0 }
            #expect(icon.status == .ok && icon.headers[.contentType] == "image/vnd.microsoft.icon")
            #expect(Data(buffer: icon.body).starts(with: [0, 0, 1, 0]), "an ICO header")
            let manifest = try await client.call(.get, "/manifest.webmanifest")
            #expect(manifest.status == .ok && manifest.headers[.contentType] == "application/manifest+json")
            #expect(manifest["start_url"] as? String == "/" && manifest["display"] as? String == "standalone")
            let icons = try #require(manifest["icons"] as? [[String: Any]])
            for entry in icons {
                let src = try #require(entry["src"] as? String)
                let reply = try await client.execute(uri: src, method: .get) { $0 }
                #expect(reply.status == .ok, "\(src)")
                #expect(reply.headers[.contentType] == entry["type"] as? String, "\(src)")
            }
        }
    }
}
