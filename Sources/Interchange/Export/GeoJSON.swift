import Foundation
import GeoQR

/// GeoJSON (RFC 7946) FeatureCollections for QGIS, Leaflet and geojson.io: a hunt's caches, or a
/// player's finds. Points are `[longitude, latitude]`, as the RFC orders them.
///
/// A cache's message is left out: it is the reward for finding the cache, and a map is shared.
///
/// ```swift
/// let data = try GeoJSON.caches(of: hunt)
/// ```
public enum GeoJSON {
    /// One Feature per cache, with id, name, difficulty, terrain, points, radius, trail and hint.
    public static func caches(of hunt: Hunt) throws -> Data {
        let features = hunt.caches.map { c in
            Feature(id: c.id, coordinate: c.coordinate, properties: [
                "id": .string(c.id), "name": .string(c.name), "difficulty": .number(c.difficulty),
                "terrain": .number(c.terrain), "points": .number(Double(c.points)),
                "radius": .number(hunt.radius(of: c)),
                "trail": hunt.trail(of: c.id).map { .string($0.id) } ?? .null,
                "hint": c.hint.map { .string($0) } ?? .null,
            ])
        }
        return try encode(Collection(name: hunt.name, features: features))
    }

    /// One Feature per find, with the cache, the time found and the log text.
    public static func finds(_ finds: [FoundLog], player: String) throws -> Data {
        let features = finds.map { f in
            Feature(id: f.cacheID, coordinate: f.coordinate, properties: [
                "cache": .string(f.cacheID), "name": .string(f.cacheName), "player": .string(player),
                "foundAt": .string(InterchangeTime.iso(f.foundAt)), "text": .string(f.text),
            ])
        }
        return try encode(Collection(name: "\(player): finds", features: features))
    }

    private static func encode(_ c: Collection) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(c) + Data("\n".utf8)
    }

    private struct Collection: Encodable {
        let type = "FeatureCollection"
        let name: String
        let features: [Feature]
    }

    private struct Feature: Encodable {
        let type = "Feature"
        let id: String
        let geometry: Point
        let properties: [String: Property]

        init(id: String, coordinate: Coordinate, properties: [String: Property]) {
            self.id = id
            geometry = Point(coordinates: [coordinate.longitude, coordinate.latitude])
            self.properties = properties
        }
    }

    private struct Point: Encodable {
        let type = "Point"
        let coordinates: [Double]
    }

    private enum Property: Encodable {
        case string(String), number(Double), null

        func encode(to encoder: Encoder) throws {
            var c = encoder.singleValueContainer()
            switch self {
            case .string(let s): try c.encode(s)
            case .number(let n): try c.encode(n)
            case .null: try c.encodeNil()
            }
        }
    }
}
