import Foundation
import Hummingbird

/// What the map needs from the server: its configuration (`GET /api/map`), Leaflet itself
/// (`/vendor/leaflet/…`) and, with `--mbtiles`, the basemap's tiles (`/tiles/{z}/{x}/{y}`).
/// All public: a phone draws the map before anyone joins.
struct MapController {
    let session: ServedHunt

    func addRoutes(api: RouterGroup<HuntRequestContext>, root: Router<HuntRequestContext>) {
        api.get("map", use: configuration)
        root.get("tiles/:z/:x/:y", use: tile)
        root.get("vendor/leaflet/:file") { request, context in try self.leaflet(request, try context.parameters.require("file")) }
        root.get("vendor/leaflet/images/:file") { request, context in
            try self.leaflet(request, "images/" + (try context.parameters.require("file")))
        }
    }

    /// `{"leaflet": true, "tiles": {"url": "/tiles/{z}/{x}/{y}", "attribution": "… (plain text)", "minZoom": 0,
    /// "maxZoom": 17, "bounds": [w, s, e, n]}}`; `"tiles": null` without a basemap.
    struct Configuration: ResponseEncodable {
        var leaflet: Bool
        var tiles: TileLayer?

        enum CodingKeys: String, CodingKey { case leaflet, tiles }
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(leaflet, forKey: .leaflet)
            try c.encode(tiles, forKey: .tiles)   // null, not left out: "no basemap" is an answer
        }
    }

    @Sendable func configuration(_ request: Request, context: HuntRequestContext) async throws -> Configuration {
        Configuration(leaflet: session.options.leaflet != nil, tiles: session.options.basemap.layer)
    }

    /// One tile of the MBTiles basemap, in XYZ numbering. A day's cache: the file does not
    /// change while the hunt runs.
    @Sendable func tile(_ request: Request, context: HuntRequestContext) async throws -> Response {
        var numbers: [Int] = []
        for name in ["z", "x", "y"] {
            let text = try context.parameters.require(name)
            guard text.count <= 10, let n = Int(text), n >= 0 else {
                throw APIError.badRequest("bad-tile", "a tile is /tiles/Z/X/Y with whole numbers, not \(name) = \(text.prefix(20))")
            }
            numbers.append(n)
        }
        guard case .mbtiles(let file, _) = session.options.basemap else {
            throw APIError.notFound("no-tiles", "this server serves no tiles (geoqr serve --mbtiles FILE)")
        }
        guard let data = try await file.tile(z: numbers[0], x: numbers[1], y: numbers[2]) else {
            throw APIError.notFound("no-tile", "the basemap has no tile \(numbers[0])/\(numbers[1])/\(numbers[2])")
        }
        return Response(status: .ok, headers: [.contentType: file.metadata.format.mediaType, .cacheControl: "public, max-age=86400",
                                               .contentLength: String(data.count)],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    func leaflet(_ request: Request, _ path: String) throws -> Response {
        guard let leaflet = session.options.leaflet else {
            throw APIError.notFound("no-leaflet", "Leaflet is not installed on this server (apt install libjs-leaflet)")
        }
        guard let file = leaflet.file(path) else { throw APIError.notFound("no-file", "Leaflet has no \(path.prefix(80))") }
        return file.response(to: request)
    }
}
