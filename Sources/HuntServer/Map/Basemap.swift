import Foundation

/// What the map draws under the caches: nothing (caches, trails, the player and a scale on a
/// plain background), an online tile server's tiles (for hunts where phones have data), or
/// tiles from an MBTiles file served from the laptop (an area prepared in advance).
///
/// ```swift
/// let basemap = Basemap.online(try TileServer(template: "https://tile.openstreetmap.org/{z}/{x}/{y}.png"))
/// basemap.imageOrigins   // ["https://tile.openstreetmap.org"]
/// ```
public enum Basemap: Sendable {
    case none
    case online(TileServer)
    /// Served at `/tiles/{z}/{x}/{y}`; `attribution` overrides the file's own.
    case mbtiles(MBTiles, attribution: String?)

    /// The template Leaflet's tile layer fetches from, the path served here for MBTiles.
    static let localTemplate = "/tiles/{z}/{x}/{y}"

    /// Origins other than this server's that pages must be allowed to load images from.
    public var imageOrigins: [String] {
        if case .online(let server) = self { return [server.origin] }
        return []
    }

    /// What the web app needs to draw the layer; nil without a basemap. The attribution is
    /// plain text (``AttributionText``): an MBTiles file's own is often HTML, and may be hostile.
    var layer: TileLayer? {
        switch self {
        case .none:
            return nil
        case .online(let server):
            return TileLayer(url: server.template, attribution: AttributionText.plain(server.attribution), minZoom: 0,
                             maxZoom: server.maxZoom, bounds: nil)
        case .mbtiles(let file, let attribution):
            let m = file.metadata
            return TileLayer(url: Self.localTemplate, attribution: attribution.map(AttributionText.plain) ?? m.attribution ?? "",
                             minZoom: m.minZoom, maxZoom: m.maxZoom, bounds: m.bounds)
        }
    }
}

/// An online XYZ tile server: `https://tile.openstreetmap.org/{z}/{x}/{y}.png`, with `{s}` for
/// a subdomain where the server has several (`https://{s}.tile.example.org/{z}/{x}/{y}.png`).
public struct TileServer: Sendable, Equatable {
    public let template: String
    public let attribution: String
    public let maxZoom: Int
    /// `https://tile.openstreetmap.org`; `https://*.tile.example.org` for a `{s}` template.
    public let origin: String

    /// OpenStreetMap's own tiles, whose attribution geoqr knows.
    public static let openStreetMapHost = "tile.openstreetmap.org"
    public static let openStreetMapAttribution = "© OpenStreetMap contributors"

    /// Checks the template: http or https, a host, and `{z}`, `{x}` and `{y}` in it.
    /// - parameter attribution: what the tile source requires to be shown; may be left out
    ///   only for OpenStreetMap's own tiles.
    /// - throws: ``TileServerError`` saying what to fix.
    public init(template: String, attribution: String? = nil, maxZoom: Int = 19) throws(TileServerError) {
        for part in ["{z}", "{x}", "{y}"] where !template.contains(part) {
            throw TileServerError("\(template) has no \(part): a tile URL looks like https://tile.openstreetmap.org/{z}/{x}/{y}.png")
        }
        let probe = template.replacingOccurrences(of: "{s}", with: "a")
            .replacingOccurrences(of: "{z}", with: "0").replacingOccurrences(of: "{x}", with: "0")
            .replacingOccurrences(of: "{y}", with: "0").replacingOccurrences(of: "{r}", with: "")
        guard let url = URLComponents(string: probe), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty
        else { throw TileServerError("\(template) is not an http(s) URL") }
        let templateHost = template.dropFirst(scheme.count + 3).prefix { $0 != "/" && $0 != ":" }
        let originHost = templateHost.replacingOccurrences(of: "{s}", with: "*")
        // The origin goes into the Content-Security-Policy: a plain host name, `*.` at most in front.
        guard !originHost.dropFirst(originHost.hasPrefix("*.") ? 2 : 0).contains("*"),
              originHost.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-.*".contains($0)) })
        else { throw TileServerError("\(template): the host must be a plain name, with {s} at most for its first part") }
        let isOSM = host.lowercased() == Self.openStreetMapHost
        guard let credit = attribution ?? (isOSM ? Self.openStreetMapAttribution : nil) else {
            throw TileServerError("tiles from \(host) need --tiles-attribution TEXT: the tile source's terms say what the map must show")
        }
        self.template = template
        self.attribution = credit
        self.maxZoom = maxZoom
        origin = "\(scheme)://\(originHost.lowercased())" + (url.port.map { ":\($0)" } ?? "")
    }
}

/// Why a tile URL template was refused, with what fixes it.
public struct TileServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The basemap as `GET /api/map` tells the web app: Leaflet's `L.tileLayer(url, {minZoom,
/// maxZoom, bounds})`, and the credit the map shows beside it.
struct TileLayer: Codable, Equatable {
    var url: String
    /// Plain text, to be shown as text: never HTML.
    var attribution: String
    var minZoom: Int
    var maxZoom: Int
    /// West, south, east, north.
    var bounds: [Double]?
}
