import Foundation
import GRDB

/// A basemap prepared in advance: raster tiles in an MBTiles 1.3 file (SQLite), opened
/// read-only and checked once, when the server starts, so a wrong file fails before any phone
/// asks for a tile.
///
/// ```swift
/// let tiles = try MBTiles(path: "aveiro.mbtiles")
/// tiles.metadata.maxZoom                         // 17
/// let png = try await tiles.tile(z: 15, x: 15979, y: 12314)   // XYZ (Leaflet's) numbering
/// ```
public final class MBTiles: Sendable {
    /// The file, as given.
    public let path: String
    /// What the file says about its tiles, with gaps filled from the tiles themselves.
    public let metadata: Metadata
    private let database: DatabaseQueue

    /// The `metadata` table's fields the map needs.
    public struct Metadata: Sendable, Equatable {
        public var format: TileFormat
        /// The file's credit as plain text (``AttributionText``): the field is HTML by custom.
        public var attribution: String?
        public var minZoom: Int
        public var maxZoom: Int
        /// West, south, east, north in degrees, when the file gives valid ones.
        public var bounds: [Double]?
    }

    /// Opens and checks the file: it must exist, be SQLite, have a `tiles` table (or view) with
    /// MBTiles' columns and at least one tile, and hold raster tiles.
    /// - throws: ``MBTilesError``, naming the file and what is wrong with it.
    public init(path: String) throws(MBTilesError) {
        self.path = path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw MBTilesError(path, "no such file") }
        guard !isFolder.boolValue else { throw MBTilesError(path, "is a folder, not an MBTiles file") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw MBTilesError(path, "cannot be read (permissions)") }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "mbtiles"
        do {
            database = try DatabaseQueue(path: path, configuration: configuration)
            metadata = try database.read(Self.readMetadata)
        } catch let error as MBTilesError {
            throw MBTilesError(path, error.problem)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw MBTilesError(path, "is not an SQLite database, so not an MBTiles file")
        } catch {
            throw MBTilesError(path, "cannot be read as MBTiles: \(error)")
        }
    }

    /// The tile at `z`/`x`/`y` in XYZ numbering (y from the north, as Leaflet and OpenStreetMap
    /// count); nil when the file has none there.
    ///
    /// MBTiles counts rows from the south (TMS), so row = 2^z − 1 − y.
    public func tile(z: Int, x: Int, y: Int) async throws -> Data? {
        guard (0...30).contains(z), (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y) else { return nil }
        let row = (1 << z) - 1 - y
        return try await database.read { db in
            try Data.fetchOne(db, SQLRequest(literal: """
                SELECT tile_data FROM tiles WHERE zoom_level = \(z) AND tile_column = \(x) AND tile_row = \(row)
                """))
        }
    }

    private static func readMetadata(_ db: Database) throws -> Metadata {
        let kinds = try String.fetchAll(db, sql: "SELECT type FROM sqlite_master WHERE name = 'tiles'")
        guard kinds.contains(where: { $0 == "table" || $0 == "view" }) else {
            throw MBTilesError("", "has no `tiles` table, so it is not an MBTiles file")
        }
        do {
            _ = try Row.fetchOne(db, sql: "SELECT zoom_level, tile_column, tile_row, tile_data FROM tiles LIMIT 0")
        } catch {
            throw MBTilesError("", "its `tiles` table lacks MBTiles' columns (zoom_level, tile_column, tile_row, tile_data)")
        }
        var fields: [String: String] = [:]
        let hasMetadata = try db.tableExists("metadata") ? true : try db.viewExists("metadata")
        if hasMetadata {
            for row in try Row.fetchAll(db, sql: "SELECT name, value FROM metadata") {
                if let name = row["name"] as String?, let value = row["value"] as String? { fields[name] = value }
            }
        }
        let zooms = try Row.fetchOne(db, sql: "SELECT MIN(zoom_level) AS low, MAX(zoom_level) AS high FROM tiles")
        guard let zooms, let low = zooms["low"] as Int?, let high = zooms["high"] as Int? else {
            throw MBTilesError("", "holds no tiles")
        }
        let format: TileFormat
        if let named = fields["format"]?.lowercased() {
            guard let known = TileFormat(name: named) else {
                throw MBTilesError("", named == "pbf" ? "holds vector tiles (pbf); geoqr serves raster tiles (png, jpg, webp)"
                                                      : "its format `\(named)` is not a raster format geoqr serves (png, jpg, webp)")
            }
            format = known
        } else {
            let first = try Data.fetchOne(db, sql: "SELECT tile_data FROM tiles LIMIT 1") ?? Data()
            format = TileFormat(sniffing: first) ?? .png
        }
        return Metadata(format: format, attribution: fields["attribution"].map(AttributionText.plain).flatMap { $0.isEmpty ? nil : $0 },
                        minZoom: fields["minzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? low,
                        maxZoom: fields["maxzoom"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? high,
                        bounds: fields["bounds"].flatMap(Self.bounds))
    }

    /// `"-8.7,40.6,-8.6,40.7"` as west, south, east, north; nil unless all four are in range.
    static func bounds(_ text: String) -> [Double]? {
        let numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite),
              (-180...180).contains(numbers[0]), (-180...180).contains(numbers[2]),
              (-90...90).contains(numbers[1]), (-90...90).contains(numbers[3]), numbers[1] <= numbers[3]
        else { return nil }
        return numbers
    }
}

/// The picture format of raster tiles.
public enum TileFormat: String, Sendable {
    case png, jpg, webp

    /// The name MBTiles' `format` field uses (`jpeg` is taken for `jpg`).
    init?(name: String) {
        switch name {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpg
        case "webp": self = .webp
        default: return nil
        }
    }

    /// The format from a tile's first bytes, for files whose metadata does not say.
    init?(sniffing bytes: Data) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { self = .png }
        else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { self = .jpg }
        else if bytes.count >= 12, bytes.prefix(4).elementsEqual("RIFF".utf8), bytes.dropFirst(8).prefix(4).elementsEqual("WEBP".utf8) { self = .webp }
        else { return nil }
    }

    /// The Content-Type tiles of this format are served with.
    public var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpg: "image/jpeg"
        case .webp: "image/webp"
        }
    }
}

/// Why an MBTiles file cannot be served, in one line naming the file:
/// `aveiro.mbtiles: has no `tiles` table, so it is not an MBTiles file`.
public struct MBTilesError: Error, CustomStringConvertible {
    public let path: String
    public let problem: String

    init(_ path: String, _ problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }
}
