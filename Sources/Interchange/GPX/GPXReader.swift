import Foundation
import GeoQR

/// Reads the waypoints of a GPX file one at a time, handing each to a closure as soon as its
/// `</wpt>` is read: memory holds one waypoint, never the document. Logs inside caches are
/// skipped as they stream past.
///
/// ```swift
/// var codes: [String] = []
/// let info = try GPXReader.read(try XMLStream(file: "pq.gpx")) { codes.append($0.code) }
/// print(info.name ?? "?", info.dialects, codes.count)
/// ```
public enum GPXReader {
    /// Reads the whole document; throws on the first structural error (malformed XML, not GPX,
    /// a waypoint without usable coordinates).
    @discardableResult
    public static func read(_ stream: XMLStream, onWaypoint: (GPXWaypoint) throws -> Void) throws -> GPXDocumentInfo {
        var state = ReadState(document: stream.documentName)
        while let event = try stream.next() {
            switch event {
            case .start(let element): try state.start(element)
            case .text(let text): state.text(text)
            case .end: if let waypoint = state.end() { try onWaypoint(waypoint) }
            }
        }
        guard state.sawRoot else {
            throw GPXError(document: stream.documentName, line: nil, message: "is empty, not a GPX file")
        }
        return state.info
    }
}

/// What a GPX file says about itself, and what the reader passed over.
public struct GPXDocumentInfo: Sendable, Equatable {
    /// `<name>` of the file (GPX 1.0) or of its `<metadata>` (GPX 1.1).
    public var name: String?
    public var description: String?
    /// Dialects seen, in the order first met.
    public var dialects: [GPXDialect] = []
    /// Namespaces skipped, each with the line of its first element.
    public var unknownNamespaces: [String: Int] = [:]
    /// Tracks and routes are not caches; they are counted, not read.
    public var tracksAndRoutes = 0
}

/// A GPX file that cannot be imported: `pq.gpx:14: wpt lat="95" is not a latitude (-90…90)`.
public struct GPXError: Error, Sendable, Equatable, CustomStringConvertible {
    public var document: String
    public var line: Int?
    public var message: String

    public var description: String {
        if let line { return "\(document):\(line): \(message)" }
        return "\(document): \(message)"
    }
}

/// The reader's position: the open elements, the waypoint being filled, and its text so far.
private struct ReadState {
    struct Open { var family: GPXDialect.Family?; var name: String }

    let document: String
    var info = GPXDocumentInfo()
    var sawRoot = false
    var stack: [Open] = []
    var waypoint: GPXWaypoint?
    var waypointDepth = 0
    var skipDepth: Int?          // inside groundspeak:logs, trk, rte, unknown namespaces
    var text = ""

    init(document: String) { self.document = document }

    mutating func start(_ e: XMLElementStart) throws {
        let dialect = GPXDialect(namespace: e.namespace)
        let family = e.namespace.isEmpty ? .gpx : dialect?.family
        if !sawRoot {
            try checkRoot(e, family: family)
            sawRoot = true
        }
        if let dialect, !info.dialects.contains(dialect) { info.dialects.append(dialect) }
        stack.append(Open(family: family, name: e.name))
        text = ""
        if skipDepth != nil { return }
        guard let family else {
            if !GPXNamespace.isQuietlyIgnored(e.namespace), info.unknownNamespaces[e.namespace] == nil {
                info.unknownNamespaces[e.namespace] = e.line
            }
            skipDepth = stack.count
            return
        }
        switch (family, e.name) {
        case (.gpx, "wpt") where waypoint == nil:
            waypoint = try startWaypoint(e)
            waypointDepth = stack.count
        case (.gpx, "trk"), (.gpx, "rte"):
            info.tracksAndRoutes += 1
            skipDepth = stack.count
        case (.groundspeak, "logs"):
            skipDepth = stack.count
        case (.groundspeak, "cache") where waypoint != nil:
            var cache = GeocacheDetails()
            cache.id = e.attributes["id"]
            cache.available = !isFalse(e.attributes["available"])
            cache.archived = isTrue(e.attributes["archived"])
            waypoint?.cache = cache
        case (.groundspeak, "short_description"):
            waypoint?.cache?.shortDescriptionIsHTML = isTrue(e.attributes["html"])
        case (.groundspeak, "long_description"):
            waypoint?.cache?.longDescriptionIsHTML = isTrue(e.attributes["html"])
        case (.groundspeak, "attribute"):
            let attribute = GeocacheAttribute(id: Int(e.attributes["id"] ?? "") ?? 0,
                                              applies: e.attributes["inc"] != "0", name: "")
            waypoint?.cache?.attributes.append(attribute)
        case (.groundspeak, "travelbug"):
            waypoint?.cache?.travelBugs.append(TravelBug(reference: e.attributes["ref"] ?? "", name: ""))
        case (.opencaching, "cache") where waypoint != nil:
            waypoint?.opencaching = OpencachingDetails()
        case (.gsak, "wptExtension") where waypoint != nil:
            waypoint?.gsak = GSAKDetails()
        case (.gpx, "link") where waypoint != nil && stack.count == waypointDepth + 1:
            waypoint?.url = e.attributes["href"]
        default:
            break
        }
    }

    mutating func text(_ s: String) {
        // Text is kept only inside a waypoint: a document's other prose is not needed.
        if skipDepth == nil, waypoint != nil || stack.count <= 3 { text += s }
    }

    /// Closes the current element; returns the waypoint when it was `</wpt>`.
    mutating func end() -> GPXWaypoint? {
        guard let open = stack.popLast() else { return nil }
        defer { text = "" }
        if let depth = skipDepth {
            if stack.count + 1 == depth { skipDepth = nil }
            return nil
        }
        let value = trimmed(text)
        let parent = stack.last?.name
        guard waypoint != nil else {
            if open.family == .gpx, parent == "gpx" || parent == "metadata", !value.isEmpty {
                if open.name == "name", info.name == nil { info.name = value }
                if open.name == "desc", info.description == nil { info.description = value }
            }
            return nil
        }
        if stack.count + 1 == waypointDepth {
            defer { waypoint = nil }
            return waypoint
        }
        let nonEmpty = value.isEmpty ? nil : value
        switch open.family {
        case .gpx?: endGPX(open.name, parent: parent, nonEmpty)
        case .groundspeak?: endGroundspeak(open.name, parent: parent, nonEmpty)
        case .opencaching?: endOpencaching(open.name, nonEmpty)
        case .gsak?: endGSAK(open.name, nonEmpty)
        case nil: break
        }
        return nil
    }

    private mutating func endGPX(_ name: String, parent: String?, _ value: String?) {
        guard stack.count == waypointDepth || (name == "text" && parent == "link") else { return }
        switch name {
        case "name": waypoint?.code = value ?? ""
        case "desc": waypoint?.description = value
        case "cmt": waypoint?.comment = value
        case "url": waypoint?.url = value
        case "urlname", "text": waypoint?.urlName = value
        case "sym": waypoint?.symbol = value
        case "type": waypoint?.type = value
        default: break
        }
    }

    private mutating func endGroundspeak(_ name: String, parent: String?, _ value: String?) {
        guard waypoint?.cache != nil else { return }
        if parent == "travelbug" {
            if name == "name", var bugs = waypoint?.cache?.travelBugs, !bugs.isEmpty {
                bugs[bugs.count - 1].name = value ?? ""
                waypoint?.cache?.travelBugs = bugs
            }
            return
        }
        if name == "attribute", var attributes = waypoint?.cache?.attributes, !attributes.isEmpty {
            attributes[attributes.count - 1].name = value ?? ""
            waypoint?.cache?.attributes = attributes
            return
        }
        switch name {
        case "name": waypoint?.cache?.name = value
        case "placed_by": waypoint?.cache?.placedBy = value
        case "owner": waypoint?.cache?.owner = value
        case "type": waypoint?.cache?.type = value
        case "container": waypoint?.cache?.container = value
        case "difficulty": waypoint?.cache?.difficulty = value
        case "terrain": waypoint?.cache?.terrain = value
        case "country": waypoint?.cache?.country = value
        case "state": waypoint?.cache?.state = value
        case "short_description": waypoint?.cache?.shortDescription = value
        case "long_description": waypoint?.cache?.longDescription = value
        case "encoded_hints": waypoint?.cache?.encodedHints = value
        default: break
        }
    }

    private mutating func endOpencaching(_ name: String, _ value: String?) {
        guard waypoint?.opencaching != nil else { return }
        switch name {
        case "type": waypoint?.opencaching?.type = value
        case "size": waypoint?.opencaching?.size = value
        case "trip_time": waypoint?.opencaching?.tripTime = value
        case "trip_distance": waypoint?.opencaching?.tripDistance = value
        case "requires_password": waypoint?.opencaching?.requiresPassword = isTrue(value)
        case "other_code": if let value { waypoint?.opencaching?.otherCodes.append(value) }
        default: break
        }
    }

    private mutating func endGSAK(_ name: String, _ value: String?) {
        guard waypoint?.gsak != nil else { return }
        switch name {
        case "Parent": waypoint?.gsak?.parent = value
        case "GcNote": waypoint?.gsak?.note = value
        case "FavPoints": waypoint?.gsak?.favoritePoints = value.flatMap { Int($0) } ?? nil
        case "LatBeforeCorrect": waypoint?.gsak?.originalLatitude = value
        case "LonBeforeCorrect": waypoint?.gsak?.originalLongitude = value
        default: break
        }
    }

    private func checkRoot(_ e: XMLElementStart, family: GPXDialect.Family?) throws {
        guard e.name == "gpx" else {
            throw GPXError(document: document, line: e.line, message: "root element is <\(e.name)>, not <gpx>: not a GPX file")
        }
        guard family == .gpx else {
            throw GPXError(document: document, line: e.line,
                           message: "<gpx> is in namespace \"\(e.namespace)\", not GPX 1.0 or 1.1")
        }
    }

    private func startWaypoint(_ e: XMLElementStart) throws -> GPXWaypoint {
        let lat = try axis(e, "lat", limit: 90, what: "latitude")
        let lon = try axis(e, "lon", limit: 180, what: "longitude")
        return GPXWaypoint(code: "", coordinate: Coordinate(latitude: lat, longitude: lon), document: document, line: e.line)
    }

    private func axis(_ e: XMLElementStart, _ key: String, limit: Double, what: String) throws -> Double {
        guard let raw = e.attributes[key] else {
            throw GPXError(document: document, line: e.line, message: "wpt has no \(key) attribute (\(what))")
        }
        guard let value = Double(raw.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw GPXError(document: document, line: e.line, message: "wpt \(key)=\"\(raw)\" is not a number")
        }
        guard abs(value) <= limit else {
            throw GPXError(document: document, line: e.line,
                           message: "wpt \(key)=\"\(raw)\" is not a \(what) (-\(Int(limit))…\(Int(limit)))")
        }
        return value
    }

}

private func isTrue(_ s: String?) -> Bool { s?.lowercased() == "true" || s == "1" }
private func isFalse(_ s: String?) -> Bool { s?.lowercased() == "false" || s == "0" }

/// Whitespace trimmed from both ends, on scalars (Foundation's trimming is slow on Linux).
private func trimmed(_ s: String) -> String {
    let v = s.unicodeScalars
    func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\n" || c == "\t" || c == "\r" }
    guard let first = v.firstIndex(where: { !isSpace($0) }) else { return "" }
    let last = v.lastIndex(where: { !isSpace($0) })!
    if first == v.startIndex, last == v.index(before: v.endIndex) { return s }
    return String(v[first...last])
}
