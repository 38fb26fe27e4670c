/// The XML namespaces GPX files from geocaching tools use, and what GeoQR makes of each.
///
/// Elements in a namespace GeoQR does not know are skipped; the import summary names each such
/// namespace once, with the line where it first appeared, so a user can tell what was left out.
public enum GPXDialect: String, Sendable, CaseIterable, Codable {
    case gpx10 = "GPX 1.0"
    case gpx11 = "GPX 1.1"
    case groundspeak10 = "Groundspeak 1.0"
    case groundspeak101 = "Groundspeak 1.0.1"
    case groundspeak102 = "Groundspeak 1.0.2"
    case opencaching = "Opencaching"
    case gsak = "GSAK"

    /// The dialect a namespace URI belongs to; nil for namespaces GeoQR does not read.
    public init?(namespace uri: String) {
        switch uri {
        case GPXNamespace.gpx10: self = .gpx10
        case GPXNamespace.gpx11: self = .gpx11
        case GPXNamespace.groundspeak10: self = .groundspeak10
        case GPXNamespace.groundspeak101: self = .groundspeak101
        case GPXNamespace.groundspeak102: self = .groundspeak102
        case GPXNamespace.opencaching, GPXNamespace.opencachingHTTP: self = .opencaching
        default:
            if uri.hasPrefix(GPXNamespace.gsakPrefix) { self = .gsak } else { return nil }
        }
    }

    /// Which part of a waypoint the dialect describes.
    var family: Family {
        switch self {
        case .gpx10, .gpx11: .gpx
        case .groundspeak10, .groundspeak101, .groundspeak102: .groundspeak
        case .opencaching: .opencaching
        case .gsak: .gsak
        }
    }

    enum Family { case gpx, groundspeak, opencaching, gsak }
}

/// Namespace URIs, as the formats' publishers spell them.
public enum GPXNamespace {
    public static let gpx10 = "http://www.topografix.com/GPX/1/0"
    public static let gpx11 = "http://www.topografix.com/GPX/1/1"
    public static let groundspeak10 = "http://www.groundspeak.com/cache/1/0"
    public static let groundspeak101 = "http://www.groundspeak.com/cache/1/0/1"
    public static let groundspeak102 = "http://www.groundspeak.com/cache/1/0/2"
    /// OKAPI's extension, used by opencaching.de, .pl, .us, .nl, .ro, .uk.
    public static let opencaching = "https://github.com/opencaching/gpx-extension-v1"
    public static let opencachingHTTP = "http://github.com/opencaching/gpx-extension-v1"
    /// GSAK's extension; the version (`/4`, `/5`, `/6`) changes nothing GeoQR reads.
    public static let gsakPrefix = "http://www.gsak.net/xmlv1/"

    /// Namespaces that carry nothing a hunt needs and are skipped without a note: schema
    /// instance attributes and device extensions (Garmin, TopoGrafix private data).
    static func isQuietlyIgnored(_ uri: String) -> Bool {
        uri == "http://www.w3.org/2001/XMLSchema-instance"
            || uri.hasPrefix("http://www.garmin.com/xmlschemas/")
            || uri.hasPrefix("http://www.topografix.com/GPX/Private/")
    }
}
