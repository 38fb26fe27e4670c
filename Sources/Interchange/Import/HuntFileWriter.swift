import Foundation
import GeoQR

/// Writes a ``Hunt`` as a hunt file (`caches/NAME.json`, the shape `HuntParser` reads and
/// `caches/hunt.schema.json` describes), fields in the order a person reads them.
///
/// ```swift
/// let data = try HuntFileWriter.data(hunt, description: "From pq.gpx", schema: "./hunt.schema.json")
/// let again = try HuntParser.parse(data, file: "caches/town.json").hunt   // == hunt
/// ```
public enum HuntFileWriter {
    /// The hunt as pretty JSON; `schema` becomes `$schema` when given.
    public static func data(_ hunt: Hunt, description: String? = nil, schema: String? = nil) throws -> Data {
        let file = HuntFile(hunt: hunt, description: description, schema: schema)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(file) + Data("\n".utf8)
    }
}

private struct HuntFile: Encodable {
    let schema: String?
    let id: String
    let name: String
    let description: String?
    let radius: Double
    let accuracyCap: Double?
    let start, end: String?
    let trails: [TrailEntry]?
    let caches: [CacheEntry]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema", id, name, description, radius, accuracyCap, start, end, trails, caches
    }

    init(hunt: Hunt, description: String?, schema: String?) {
        self.schema = schema
        id = hunt.id
        name = hunt.name
        self.description = description
        radius = hunt.defaultRadius
        accuracyCap = hunt.accuracyCap == Hunt.standardAccuracyCap ? nil : hunt.accuracyCap
        let iso = ISO8601DateFormatter()
        start = hunt.start.map { iso.string(from: $0) }
        end = hunt.end.map { iso.string(from: $0) }
        trails = hunt.trails.isEmpty ? nil : hunt.trails.map {
            TrailEntry(id: $0.id, name: $0.name, ordered: $0.ordered ? true : nil, caches: $0.cacheIDs)
        }
        caches = hunt.caches.map(CacheEntry.init)
    }
}

private struct TrailEntry: Encodable {
    let id, name: String
    let ordered: Bool?
    let caches: [String]
}

private struct CacheEntry: Encodable {
    let id, name: String
    let lat, lon: Double
    let radius: Double?
    let difficulty, terrain: Double
    let points: Int?
    let message: String?
    let hint: String?

    init(_ c: Cache) {
        id = c.id
        name = c.name
        lat = c.coordinate.latitude
        lon = c.coordinate.longitude
        radius = c.radius
        difficulty = c.difficulty
        terrain = c.terrain
        // Left out when it is the default, so editing difficulty later changes the points too.
        points = c.points == Cache.defaultPoints(difficulty: c.difficulty, terrain: c.terrain) ? nil : c.points
        message = c.message.isEmpty ? nil : c.message
        hint = c.hint
    }
}
