import Foundation
import GeoQR

/// Writes GPX 1.0 with the Groundspeak 1.0.1 cache extension, the dialect c:geo, GSAK and Garmin
/// devices all load: a hunt's caches (enriched from its ``GeocachingSidecar`` when there is one),
/// or a player's finds as `Geocache Found` waypoints with a "Found it" log each.
///
/// The output validates against `Tests/InterchangeTests/Fixtures/gpx-subset.xsd`.
///
/// ```swift
/// let gpx = GPXWriter.hunt(hunt, sidecar: sidecar, generated: Date())
/// ```
public enum GPXWriter {
    /// The hunt's caches, then the additional waypoints the sidecar attaches to them.
    public static func hunt(_ hunt: Hunt, sidecar: GeocachingSidecar? = nil, generated: Date) -> Data {
        var x = XMLText()
        header(&x, name: hunt.name, description: "GeoQR hunt \(hunt.id): \(hunt.caches.count) caches",
               generated: generated, points: hunt.caches.map(\.coordinate))
        for cache in hunt.caches {
            writeCache(&x, cache, sidecar?.cache(id: cache.id))
        }
        for cache in hunt.caches {
            for w in sidecar?.cache(id: cache.id)?.waypoints ?? [] { writeAdditional(&x, w) }
        }
        x.close("gpx")
        return Data(x.text.utf8)
    }

    /// A player's finds: each a waypoint with the `Geocache Found` symbol and one "Found it" log.
    public static func finds(_ finds: [FoundLog], player: String, generated: Date) -> Data {
        var x = XMLText()
        header(&x, name: "\(player): finds", description: "Finds logged with GeoQR", generated: generated,
               points: finds.map(\.coordinate))
        for (i, f) in finds.enumerated() {
            x.open("wpt", ["lat": decimal(f.coordinate.latitude), "lon": decimal(f.coordinate.longitude)])
            x.leaf("time", InterchangeTime.iso(f.foundAt))
            x.leaf("name", f.cacheID)
            x.leaf("desc", f.cacheName)
            x.leaf("urlname", f.cacheName)
            x.leaf("sym", "Geocache Found")
            x.leaf("type", "Geocache|Traditional Cache")
            x.open("groundspeak:cache", ["id": String(i + 1), "available": "True", "archived": "False"])
            x.leaf("groundspeak:name", f.cacheName)
            x.leaf("groundspeak:placed_by", "GeoQR")
            x.leaf("groundspeak:owner", "GeoQR", ["id": "0"])
            x.leaf("groundspeak:type", "Traditional Cache")
            x.leaf("groundspeak:container", "Other")
            x.leaf("groundspeak:difficulty", "1")
            x.leaf("groundspeak:terrain", "1")
            x.open("groundspeak:logs")
            x.open("groundspeak:log", ["id": String(i + 1)])
            x.leaf("groundspeak:date", InterchangeTime.iso(f.foundAt))
            x.leaf("groundspeak:type", "Found it")
            x.leaf("groundspeak:finder", player, ["id": "0"])
            x.leaf("groundspeak:text", f.text, ["encoded": "False"])
            x.close("groundspeak:log")
            x.close("groundspeak:logs")
            x.close("groundspeak:cache")
            x.close("wpt")
        }
        x.close("gpx")
        return Data(x.text.utf8)
    }

    private static func header(_ x: inout XMLText, name: String, description: String, generated: Date, points: [Coordinate]) {
        x.text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        x.open("gpx", [
            "version": "1.0", "creator": "GeoQR",
            "xmlns": GPXNamespace.gpx10,
            "xmlns:groundspeak": GPXNamespace.groundspeak101,
            "xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
            "xsi:schemaLocation": "\(GPXNamespace.gpx10) http://www.topografix.com/GPX/1/0/gpx.xsd "
                + "\(GPXNamespace.groundspeak101) http://www.groundspeak.com/cache/1/0/1/cache.xsd",
        ])
        x.leaf("name", name)
        x.leaf("desc", description)
        x.leaf("author", "GeoQR")
        x.leaf("time", InterchangeTime.iso(generated))
        if !points.isEmpty {
            x.leaf("bounds", nil, [
                "minlat": decimal(points.map(\.latitude).min()!), "minlon": decimal(points.map(\.longitude).min()!),
                "maxlat": decimal(points.map(\.latitude).max()!), "maxlon": decimal(points.map(\.longitude).max()!),
            ])
        }
    }

    private static func writeCache(_ x: inout XMLText, _ c: Cache, _ e: GeocachingSidecar.Entry?) {
        let type = e?.type ?? "Traditional Cache"
        let owner = e?.owner ?? "GeoQR"
        let rating = "(\(c.difficulty.formatted1)/\(c.terrain.formatted1))"
        x.open("wpt", ["lat": decimal(c.coordinate.latitude), "lon": decimal(c.coordinate.longitude)])
        x.leaf("name", e?.code ?? c.id)
        x.leaf("desc", "\(c.name) by \(owner), \(type) \(rating)")
        if let url = e?.url { x.leaf("url", url) }
        x.leaf("urlname", c.name)
        x.leaf("sym", "Geocache")
        x.leaf("type", "Geocache|\(type)")
        x.open("groundspeak:cache", [
            "id": e?.siteID ?? c.id, "available": e?.available == false ? "False" : "True",
            "archived": e?.archived == true ? "True" : "False",
        ])
        x.leaf("groundspeak:name", c.name)
        x.leaf("groundspeak:placed_by", e?.placedBy ?? owner)
        x.leaf("groundspeak:owner", owner, ["id": "0"])
        x.leaf("groundspeak:type", type)
        x.leaf("groundspeak:container", e?.container ?? "Other")
        if let attributes = e?.attributes {
            x.open("groundspeak:attributes")
            for a in attributes { x.leaf("groundspeak:attribute", a.name, ["id": String(a.id), "inc": a.applies ? "1" : "0"]) }
            x.close("groundspeak:attributes")
        }
        x.leaf("groundspeak:difficulty", c.difficulty.formatted1)
        x.leaf("groundspeak:terrain", c.terrain.formatted1)
        x.leaf("groundspeak:country", e?.country ?? "")
        x.leaf("groundspeak:state", e?.state ?? "")
        x.leaf("groundspeak:short_description", c.message, ["html": "False"])
        x.leaf("groundspeak:long_description", e?.longDescription ?? "", ["html": "False"])
        x.leaf("groundspeak:encoded_hints", c.hint ?? "")
        if let bugs = e?.trackables {
            x.open("groundspeak:travelbugs")
            for (i, b) in bugs.enumerated() {
                x.open("groundspeak:travelbug", ["id": String(i + 1), "ref": b.reference])
                x.leaf("groundspeak:name", b.name)
                x.close("groundspeak:travelbug")
            }
            x.close("groundspeak:travelbugs")
        }
        x.close("groundspeak:cache")
        x.close("wpt")
    }

    private static func writeAdditional(_ x: inout XMLText, _ w: GeocachingSidecar.Waypoint) {
        x.open("wpt", ["lat": decimal(w.lat), "lon": decimal(w.lon)])
        x.leaf("name", w.code)
        if let note = w.note { x.leaf("cmt", note) }
        x.leaf("desc", w.name)
        x.leaf("urlname", w.name)
        x.leaf("sym", w.type ?? "Reference Point")
        x.leaf("type", "Waypoint|\(w.type ?? "Reference Point")")
        x.close("wpt")
    }

    /// Shortest text that reads back as the same Double, never in exponent form (xsd:decimal).
    static func decimal(_ v: Double) -> String {
        let s = "\(v)"
        if !s.contains("e") { return s.hasSuffix(".0") ? String(s.dropLast(2)) : s }
        var fixed = String(format: "%.12f", v)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        if fixed.hasSuffix(".") { fixed.removeLast() }
        return fixed
    }
}

/// Indented XML built as text, escaping every value. Attributes are written in sorted order
/// (namespace declarations first) so output is stable.
struct XMLText {
    var text = ""
    private var depth = 0

    mutating func open(_ name: String, _ attributes: [String: String] = [:]) {
        text += indent + "<" + name + attributeText(attributes) + ">\n"
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        text += indent + "</" + name + ">\n"
    }

    mutating func leaf(_ name: String, _ value: String?, _ attributes: [String: String] = [:]) {
        guard let value else { text += indent + "<" + name + attributeText(attributes) + "/>\n"; return }
        text += indent + "<" + name + attributeText(attributes) + ">" + Self.escape(value) + "</" + name + ">\n"
    }

    private var indent: String { String(repeating: "  ", count: depth) }

    private func attributeText(_ attributes: [String: String]) -> String {
        let keys = attributes.keys.sorted { ($0.hasPrefix("xmlns") ? 0 : 1, $0) < ($1.hasPrefix("xmlns") ? 0 : 1, $1) }
        return keys.map { " \($0)=\"\(Self.escape(attributes[$0]!, attribute: true))\"" }.joined()
    }

    /// Escapes markup, and drops characters XML 1.0 cannot carry (control characters but tab,
    /// line feed and carriage return), which would make the file unreadable.
    static func escape(_ s: String, attribute: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\n" where attribute: out += "&#10;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
