import Foundation
import GeoQR

/// What an imported geocache carries that a hunt file has no field for yet: type, container,
/// owner, attributes, the full descriptions, additional waypoints and travel bugs. Written by
/// `geoqr import` as `caches/NAME.geocaching.json` beside `caches/NAME.json`, and read back by
/// `geoqr export` so a GPX export gives GSAK or c:geo the cache as it came in.
///
/// The format (`"format": "geoqr-geocaching/1"`) is described in `docs/interchange.md`.
///
/// ```swift
/// let sidecar = try GeocachingSidecar.decode(data)
/// sidecar.cache(id: "GC1BKP3")?.waypoints?.first?.type   // "Parking Area"
/// ```
public struct GeocachingSidecar: Codable, Sendable, Equatable {
    /// The format's name and version; readers refuse other values.
    public var format: String = GeocachingSidecar.formatName
    /// The hunt id this file describes.
    public var hunt: String
    /// The files the caches came from (`pq.zip:1234567.gpx`).
    public var sources: [String]
    /// The GPX dialects those files used.
    public var dialects: [String]
    public var caches: [Entry]

    public static let formatName = "geoqr-geocaching/1"

    public init(hunt: String, sources: [String], dialects: [String], caches: [Entry]) {
        self.hunt = hunt
        self.sources = sources
        self.dialects = dialects
        self.caches = caches
    }

    /// The entry for a cache of the hunt.
    public func cache(id: String) -> Entry? { caches.first { $0.id == id.uppercased() } }

    /// One geocache; every field but `id` is optional and left out when the source had none.
    public struct Entry: Codable, Sendable, Equatable {
        /// The hunt's cache id.
        public var id: String
        /// The waypoint code as the source wrote it, when the id differs (too long, odd characters).
        public var code: String?
        /// The site's numeric id (`groundspeak:cache id`).
        public var siteID: String?
        public var url: String?
        public var type: String?
        public var container: String?
        public var owner: String?
        public var placedBy: String?
        public var country: String?
        public var state: String?
        public var available: Bool?
        public var archived: Bool?
        public var attributes: [GeocacheAttribute]?
        /// Descriptions reduced to plain text.
        public var shortDescription: String?
        public var longDescription: String?
        /// The player's personal note (GSAK).
        public var note: String?
        public var favoritePoints: Int?
        /// The posted coordinates when the hunt holds corrected ones (GSAK).
        public var postedLatitude: Double?
        public var postedLongitude: Double?
        /// Opencaching's own type and size names, password flag and codes on other sites.
        public var opencaching: Opencaching?
        /// Parking, stages, trailheads: points that belong to this cache.
        public var waypoints: [Waypoint]?
        /// Travel bugs listed in the cache, to be seeded as the hunt's trackables.
        public var trackables: [TravelBug]?

        public init(id: String) { self.id = id }
    }

    /// `oc:cache` as read.
    public struct Opencaching: Codable, Sendable, Equatable {
        public var type: String?
        public var size: String?
        public var tripTime: String?
        public var tripDistance: String?
        public var requiresPassword: Bool?
        public var otherCodes: [String]?
    }

    /// An additional waypoint (`PK1BKP3` for `GC1BKP3`).
    public struct Waypoint: Codable, Sendable, Equatable {
        public var code: String
        public var name: String
        /// `Parking Area`, `Stages of a Multicache`, `Final Location`, `Reference Point`, …
        public var type: String?
        public var lat: Double
        public var lon: Double
        public var note: String?
    }

    /// Pretty, stable JSON.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// Reads a sidecar, refusing other formats.
    public static func decode(_ data: Data, file: String) throws(GPXError) -> GeocachingSidecar {
        let sidecar: GeocachingSidecar
        do { sidecar = try JSONDecoder().decode(GeocachingSidecar.self, from: data) } catch {
            throw GPXError(document: file, line: nil, message: "is not a GeoQR geocaching sidecar (\(formatName))")
        }
        guard sidecar.format == formatName else {
            throw GPXError(document: file, line: nil, message: "format \"\(sidecar.format)\" is not \(formatName)")
        }
        return sidecar
    }

    /// `caches/NAME.json` → `caches/NAME.geocaching.json`.
    public static func path(besideHuntFile path: String) -> String {
        let base = path.hasSuffix(".json") ? String(path.dropLast(5)) : path
        return base + ".geocaching.json"
    }
}
