import Foundation
import GeoQR

/// Turns GPX waypoints into a hunt: each geocache becomes a cache whose id is its waypoint code,
/// additional waypoints (parking, stages) attach to their cache in the sidecar, and whatever a
/// hunt file has no field for goes to the ``GeocachingSidecar``.
///
/// Feed it waypoints as the reader streams them, then call ``finish()``:
///
/// ```swift
/// var importer = HuntImport(options: .init(huntID: "TOWN", huntName: "Town caches"))
/// try GPXReader.read(try XMLStream(file: "pq.gpx")) { importer.add($0) }
/// let result = try importer.finish()
/// ```
public struct HuntImport {
    /// Choices the user makes on the command line.
    public struct Options: Sendable {
        public var huntID: String
        public var huntName: String?
        /// Keep archived and unavailable caches.
        public var includeArchived = false
        /// The hunt's default claim radius. 80 m: geocaches stand at least 161 m (0.1 mile) apart,
        /// so circles this size never overlap.
        public var radius: Double = 80

        public init(huntID: String, huntName: String? = nil, includeArchived: Bool = false, radius: Double = 80) {
            self.huntID = huntID
            self.huntName = huntName
            self.includeArchived = includeArchived
            self.radius = radius
        }
    }

    /// The hunt, the sidecar and the report, ready to write.
    public struct Result: Sendable {
        public var hunt: Hunt
        public var description: String?
        public var sidecar: GeocachingSidecar
        public var report: ImportReport
    }

    /// Message text taken from a long description is cut to this many characters; the whole
    /// text stays in the sidecar.
    public static let messageLimit = 500

    public let options: Options
    private var caches: [Cache] = []
    private var entries: [GeocachingSidecar.Entry] = []
    private var lineOfCode: [String: String] = [:]     // original code → FILE:LINE, for duplicates
    private var indexOfCode: [String: Int] = [:]       // original code → index in caches
    private var usedIDs: Set<String> = []
    private var pendingWaypoints: [GPXWaypoint] = []
    private var report = ImportReport()
    private var sources: [String] = []
    private var dialects: [String] = []
    private var documentName: String?
    private var documentDescription: String?

    public init(options: Options) { self.options = options }

    /// Records what a file said about itself (its name, dialects, skipped namespaces).
    public mutating func noteDocument(_ name: String, info: GPXDocumentInfo) {
        sources.append(name)
        for d in info.dialects.map(\.rawValue) where !dialects.contains(d) { dialects.append(d) }
        if documentName == nil { documentName = info.name }
        if documentDescription == nil { documentDescription = info.description }
        for (uri, line) in info.unknownNamespaces.sorted(by: { $0.value < $1.value }) {
            report.notes.append("\(name):\(line): ignored elements in unknown namespace \(uri)")
        }
        if info.tracksAndRoutes > 0 {
            report.notes.append("\(name): ignored \(info.tracksAndRoutes) tracks and routes (not caches)")
        }
    }

    /// Adds one waypoint: a cache now, an additional waypoint once every cache is known.
    /// `fromCompanion` marks waypoints of a pocket query's `-wpts.gpx` file.
    public mutating func add(_ w: GPXWaypoint, fromCompanion: Bool = false) {
        if w.isAdditionalWaypoint || fromCompanion { pendingWaypoints.append(w); return }
        let location = "\(w.document):\(w.line)"
        let code = w.code.trimmingCharacters(in: .whitespaces)
        guard !code.isEmpty else { return skip(w, "waypoint has no <name> (code)") }
        if let first = lineOfCode[code.uppercased()] { return skip(w, "duplicate code (first at \(first))") }
        if let cache = w.cache, !options.includeArchived {
            if cache.archived { return skip(w, "archived (use --include-archived to keep)") }
            if !cache.available { return skip(w, "unavailable (use --include-archived to keep)") }
        }
        lineOfCode[code.uppercased()] = location
        let id = cacheID(for: code, w)
        let difficulty = rating(w.cache?.difficulty, "difficulty", w)
        let terrain = rating(w.cache?.terrain, "terrain", w)
        let name = displayName(w, code: code)
        let entry = entry(for: w, id: id, code: code)
        let cache = Cache(id: id, name: name, coordinate: w.coordinate, difficulty: difficulty, terrain: terrain,
                          message: message(for: w, entry), hint: hint(for: w))
        indexOfCode[code.uppercased()] = caches.count
        caches.append(cache)
        entries.append(entry)
    }

    /// Attaches the additional waypoints and builds the hunt; throws when nothing could be
    /// imported, naming the first reasons.
    public mutating func finish() throws(GPXError) -> Result {
        var bySuffix: [String: Int] = [:]
        for (code, index) in indexOfCode where code.count > 2 { bySuffix["\(code.count):\(code.dropFirst(2))"] = index }
        for w in pendingWaypoints { attach(w, bySuffix: bySuffix) }
        pendingWaypoints = []
        report.caches = caches.count
        report.trackables = entries.reduce(0) { $0 + ($1.trackables?.count ?? 0) }
        guard !caches.isEmpty else {
            let why = report.skipped.prefix(3).map(\.description).joined(separator: "; ")
            throw GPXError(document: sources.joined(separator: ", "), line: nil,
                           message: "no caches to import" + (why.isEmpty ? "" : " (skipped: \(why))"))
        }
        let name = options.huntName ?? documentName ?? options.huntID
        let hunt = Hunt(id: options.huntID, name: name, defaultRadius: options.radius, caches: caches)
        let sidecar = GeocachingSidecar(hunt: options.huntID, sources: sources, dialects: dialects, caches: entries)
        return Result(hunt: hunt, description: documentDescription, sidecar: sidecar, report: report)
    }

    // MARK: - Mapping one waypoint

    private mutating func skip(_ w: GPXWaypoint, _ reason: String) {
        report.skipped.append(.init(code: w.code, location: "\(w.document):\(w.line)", reason: reason))
    }

    private mutating func change(_ w: GPXWaypoint, _ reason: String) {
        report.changed.append(.init(code: w.code, location: "\(w.document):\(w.line)", reason: reason))
    }

    /// The code when the code alphabet carries it; otherwise a shortened or cleaned form, reported.
    private mutating func cacheID(for code: String, _ w: GPXWaypoint) -> String {
        let limit = CodeAlphabet.maxCacheIDLength
        var id: String
        switch CodeAlphabet.canonicalID(code, maxLength: limit) {
        case .success(let ok):
            id = ok
        case .failure(let problem):
            let cleaned = code.uppercased().map { CodeAlphabet.idCharacters.contains($0) ? $0 : "-" }
            let words = String(cleaned).split(separator: "-").joined(separator: "-")
            id = String(words.prefix(limit)).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
            if id.isEmpty { id = "W\(caches.count + 1)" }
            change(w, "id \(id): code \(problem)")
        }
        if usedIDs.contains(id) {
            var n = 2
            while usedIDs.contains(String(id.prefix(limit - 1 - String(n).count)) + "-\(n)") { n += 1 }
            let unique = String(id.prefix(limit - 1 - String(n).count)) + "-\(n)"
            change(w, "id \(unique): \(id) was taken by another cache")
            id = unique
        }
        usedIDs.insert(id)
        return id
    }

    /// Difficulty or terrain on geocaching's scale (1–5 in halves); other values are rounded, reported.
    private mutating func rating(_ raw: String?, _ what: String, _ w: GPXWaypoint) -> Double {
        guard let raw else { return 1 }
        guard let value = Double(raw), value.isFinite else {
            change(w, "\(what) \"\(raw)\" is not a number; set to 1")
            return 1
        }
        let fixed = min(5, max(1, (value * 2).rounded() / 2))
        if fixed != value { change(w, "\(what) \(raw) set to \(fixed.formatted1)") }
        return fixed
    }

    private func displayName(_ w: GPXWaypoint, code: String) -> String {
        let candidates = [w.cache?.name, w.urlName, w.cache == nil ? code : nil, code]
        return candidates.compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty } ?? code
    }

    /// The short description, else the start of the long one; for plain waypoints their
    /// description or comment. HTML is reduced to text.
    private func message(for w: GPXWaypoint, _ entry: GeocachingSidecar.Entry) -> String {
        guard w.cache != nil else {
            return (w.description ?? w.comment).map(HTMLText.tidy) ?? ""
        }
        // The sidecar entry holds both descriptions already reduced to text.
        return entry.shortDescription ?? Self.shorten(entry.longDescription ?? "", to: Self.messageLimit)
    }

    /// A description as plain text: HTML reduced when the file says it is HTML, else only tidied
    /// (so "x < 5" in plain text stays as written).
    static func text(_ s: String?, isHTML: Bool) -> String {
        guard let s else { return "" }
        return isHTML ? HTMLText.plain(s) : HTMLText.tidy(s)
    }

    private func hint(for w: GPXWaypoint) -> String? {
        guard let hint = w.cache?.encodedHints.map(HTMLText.tidy), !hint.isEmpty else { return nil }
        return hint
    }

    /// Cut at a word boundary, with an ellipsis, when longer than `limit` characters.
    static func shorten(_ s: String, to limit: Int) -> String {
        guard s.count > limit else { return s }
        let head = s.prefix(limit - 1)
        let cut = head.lastIndex(where: { $0 == " " || $0 == "\n" }).map { head[..<$0] } ?? head
        return cut.trimmingCharacters(in: .whitespacesAndNewlines) + "…"
    }

    private func entry(for w: GPXWaypoint, id: String, code: String) -> GeocachingSidecar.Entry {
        var e = GeocachingSidecar.Entry(id: id)
        e.code = code.uppercased() == id ? nil : code
        e.url = w.url
        if let c = w.cache {
            e.siteID = c.id
            e.type = c.type
            e.container = c.container
            e.owner = c.owner
            e.placedBy = c.placedBy
            e.country = c.country
            e.state = c.state
            e.available = c.available
            e.archived = c.archived
            e.attributes = c.attributes.isEmpty ? nil : c.attributes
            e.shortDescription = Self.text(c.shortDescription, isHTML: c.shortDescriptionIsHTML).nonEmpty
            e.longDescription = Self.text(c.longDescription, isHTML: c.longDescriptionIsHTML).nonEmpty
            e.trackables = c.travelBugs.isEmpty ? nil : c.travelBugs
        } else if let type = w.type {
            e.type = type
        }
        if let g = w.gsak {
            e.note = g.note
            e.favoritePoints = g.favoritePoints
            e.postedLatitude = g.originalLatitude.flatMap(Double.init)
            e.postedLongitude = g.originalLongitude.flatMap(Double.init)
        }
        if let oc = w.opencaching {
            e.opencaching = .init(type: oc.type, size: oc.size, tripTime: oc.tripTime, tripDistance: oc.tripDistance,
                                  requiresPassword: oc.requiresPassword ? true : nil,
                                  otherCodes: oc.otherCodes.isEmpty ? nil : oc.otherCodes)
        }
        return e
    }

    // MARK: - Additional waypoints

    /// Parent by GSAK's `Parent`, else `OC1234-1` → `OC1234`, else same code after the two-letter
    /// prefix (`PK1BKP3`, `011BKP3` → `GC1BKP3`).
    private mutating func attach(_ w: GPXWaypoint, bySuffix: [String: Int]) {
        let code = w.code.uppercased()
        var parent: Int?
        if let p = w.gsak?.parent?.uppercased() { parent = indexOfCode[p] }
        if parent == nil, let dash = code.lastIndex(of: "-") { parent = indexOfCode[String(code[..<dash])] }
        if parent == nil, code.count > 2 {
            parent = bySuffix["\(code.count):\(code.dropFirst(2))"]
        }
        guard let index = parent else {
            let known = lineOfCode[code] != nil
            return skip(w, known ? "additional waypoint with a cache's code" : "additional waypoint whose cache is not in the import")
        }
        let type = w.type.map { $0.hasPrefix("Waypoint|") ? String($0.dropFirst(9)) : $0 } ?? w.symbol
        let name = w.urlName ?? w.description ?? code
        let note = w.comment.map(HTMLText.tidy)?.nonEmpty
        let waypoint = GeocachingSidecar.Waypoint(code: w.code, name: name, type: type,
                                                  lat: w.coordinate.latitude, lon: w.coordinate.longitude, note: note)
        entries[index].waypoints = (entries[index].waypoints ?? []) + [waypoint]
        report.waypointsAttached += 1
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}

extension Double {
    /// 1.5 as "1.5" and 2 as "2", as ratings are written.
    var formatted1: String { self == rounded() ? String(Int(self)) : String(self) }
}
