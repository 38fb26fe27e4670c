import GeoQR

/// One `<wpt>` of a GPX file with what the geocaching extensions say about it, as read; the
/// import decides what becomes of it (``HuntImport``).
///
/// ```swift
/// try GPXReader.read(file: "pq.gpx") { waypoint in print(waypoint.code, waypoint.cache?.name ?? "-") }
/// ```
public struct GPXWaypoint: Sendable, Equatable {
    /// `<name>`: the waypoint code in geocaching files (`GC1BKP3`, `PK1BKP3`, `OC1234`).
    public var code: String
    public var coordinate: Coordinate
    /// Where the `<wpt>` tag is (`FILE:LINE` in reports).
    public var document: String
    public var line: Int
    public var description: String?
    public var comment: String?
    /// `<urlname>` (GPX 1.0) or `<link><text>` (GPX 1.1).
    public var urlName: String?
    public var url: String?
    public var symbol: String?
    /// `<type>`, e.g. `Geocache|Traditional Cache` or `Waypoint|Parking Area`.
    public var type: String?
    /// The geocache this waypoint is, from the Groundspeak (or Opencaching) extension.
    public var cache: GeocacheDetails?
    /// Opencaching's own extension (`oc:cache`).
    public var opencaching: OpencachingDetails?
    /// GSAK's extension (`gsak:wptExtension`).
    public var gsak: GSAKDetails?

    public init(code: String, coordinate: Coordinate, document: String = "", line: Int = 0) {
        self.code = code
        self.coordinate = coordinate
        self.document = document
        self.line = line
    }

    /// True for parking, stages, trailheads and other points that belong to a cache.
    public var isAdditionalWaypoint: Bool {
        if cache != nil { return false }
        if gsak?.parent != nil { return true }
        return type?.hasPrefix("Waypoint|") ?? false
    }
}

/// `groundspeak:cache` (namespaces 1.0, 1.0.1 and 1.0.2 alike).
public struct GeocacheDetails: Sendable, Equatable {
    public var id: String?
    public var available = true
    public var archived = false
    public var name: String?
    public var placedBy: String?
    public var owner: String?
    public var type: String?
    public var container: String?
    public var attributes: [GeocacheAttribute] = []
    public var difficulty: String?
    public var terrain: String?
    public var country: String?
    public var state: String?
    public var shortDescription: String?
    public var shortDescriptionIsHTML = false
    public var longDescription: String?
    public var longDescriptionIsHTML = false
    public var encodedHints: String?
    public var travelBugs: [TravelBug] = []

    public init() {}
}

/// A listed cache attribute (`<groundspeak:attribute id="32" inc="1">Bicycles</groundspeak:attribute>`).
public struct GeocacheAttribute: Sendable, Equatable, Codable {
    public var id: Int
    /// False when the attribute is negated ("no dogs").
    public var applies: Bool
    public var name: String

    public init(id: Int, applies: Bool, name: String) {
        self.id = id
        self.applies = applies
        self.name = name
    }
}

/// A travel bug listed in a cache (`groundspeak:travelbug`).
public struct TravelBug: Sendable, Equatable, Codable {
    /// The tracking reference shown publicly, e.g. `TB1A2B3`.
    public var reference: String
    public var name: String

    public init(reference: String, name: String) {
        self.reference = reference
        self.name = name
    }
}

/// `oc:cache` from Opencaching sites (OKAPI's GPX extension).
public struct OpencachingDetails: Sendable, Equatable {
    public var type: String?
    public var size: String?
    public var tripTime: String?
    public var tripDistance: String?
    public var requiresPassword = false
    /// Codes of the same cache on other sites (`oc:other_code`).
    public var otherCodes: [String] = []

    public init() {}
}

/// `gsak:wptExtension`: what GSAK adds to a waypoint.
public struct GSAKDetails: Sendable, Equatable {
    /// For additional waypoints: the code of the cache they belong to.
    public var parent: String?
    /// The player's own note on the cache.
    public var note: String?
    public var favoritePoints: Int?
    /// Set when `<wpt>` holds corrected coordinates; these are the posted ones.
    public var originalLatitude: String?
    public var originalLongitude: String?

    public init() {}
}
