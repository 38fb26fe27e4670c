import Foundation

/// Reads a hunt file (JSON, described by `caches/hunt.schema.json`) into a ``Hunt``, checking
/// every field and naming the file, field path and value of anything wrong.
///
/// ```swift
/// do {
///     let parsed = try HuntParser.parse(data, file: "caches/demo.json")
///     parsed.warnings.forEach { print($0) }       // e.g. overlapping claim radii
/// } catch {
///     print(error)   // caches/demo.json: caches[3].lat: 95 is not a latitude (-90…90)
/// }
/// ```
public enum HuntParser {
    /// The largest radius a cache may have: beyond 10 km a claim says nothing about a visit.
    public static let maxRadius: Double = 10_000
    /// The most a hint may cost: more than any cache is worth is a typo.
    public static let maxHintCost: Double = 1_000_000
    /// A week: a late claim older than that is no longer the hunt it was scanned in.
    public static let maxOfflineGraceMinutes: Double = 7 * 24 * 60
    /// A year: positions kept longer than that are no longer a game's.
    public static let maxPositionRetentionHours: Double = 365 * 24

    public static func parse(_ data: Data, file: String) throws(HuntFileError) -> ParsedHunt {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: data)
        } catch {
            throw HuntFileError([HuntProblem(file: file, path: "", message: notJSONMessage(error, data: data))])
        }
        let reader = FieldReader(file: file)
        let hunt = readHunt(root, reader)
        var problems = reader.problems
        if let hunt, problems.isEmpty {
            problems += HuntChecks.overlappingRadii(in: hunt, file: file)
        }
        guard let hunt, !problems.contains(where: { $0.severity == .error }) else {
            throw HuntFileError(problems)
        }
        return ParsedHunt(hunt: hunt, warnings: problems)
    }

    private static func notJSONMessage(_ error: Error, data: Data) -> String {
        if data.isEmpty { return "is empty, not a hunt (JSON object)" }
        // Foundation reports the byte offset in its debug description; turn it into a line.
        let detail = (error as NSError).userInfo.values.compactMap { ($0 as? NSError)?.debugDescription }.first
            ?? String(describing: error)
        if let range = detail.range(of: #"(?:character|offset) (\d+)"#, options: .regularExpression),
           let offset = Int(detail[range].split(separator: " ").last ?? "") {
            let line = data.prefix(offset).reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
            return "is not valid JSON (line \(line))"
        }
        return "is not valid JSON"
    }

    private static let huntFields: Set = ["$schema", "id", "name", "description", "radius", "accuracyCap",
                                          "start", "end", "trails", "caches", "teams", "hintCost",
                                          "offlineGraceMinutes", "courses", "stillOutWarningMinutes",
                                          "positionRetentionHours"]
    private static let cacheFields: Set = ["id", "name", "lat", "lon", "radius", "difficulty", "terrain",
                                           "points", "message", "hint", "challenge"]
    private static let trailFields: Set = ["id", "name", "ordered", "caches"]

    private static func readHunt(_ root: JSONValue, _ r: FieldReader) -> Hunt? {
        guard let object = r.object(root, at: "", what: "a hunt (JSON object)") else { return nil }
        r.rejectUnknown(object, allowed: huntFields, at: "")
        let id = r.id(object, "id", at: "", maxLength: CodeAlphabet.maxHuntIDLength)
        let name = r.text(object, "name", at: "")
        let radius = r.radius(object, "radius", at: "") ?? Hunt.standardRadius
        let cap = r.number(object, "accuracyCap", at: "", range: 0...maxRadius) ?? Hunt.standardAccuracyCap
        let start = r.date(object, "start", at: "")
        let end = r.date(object, "end", at: "")
        if let start, let end, end <= start {
            r.fail("end", "\(r.isoString(end)) is not after start \(r.isoString(start))")
        }
        let hintCost = r.number(object, "hintCost", at: "", range: 0...maxHintCost, integer: true).map { Int($0) } ?? 0
        let grace = r.number(object, "offlineGraceMinutes", at: "", range: 0...maxOfflineGraceMinutes, integer: true)
            .map { Int($0) } ?? Hunt.standardOfflineGraceMinutes
        let teams = readTeams(object["teams"], r)
        let caches = readCaches(object["caches"], r)
        let trails = readTrails(object["trails"], caches: caches, r)
        let courses = CourseReader.courses(object["courses"], caches: caches, r)
        let stillOut = r.number(object, "stillOutWarningMinutes", at: "", range: 1...maxOfflineGraceMinutes, integer: true)
            .map { Int($0) } ?? Hunt.standardStillOutWarningMinutes
        let retention = r.number(object, "positionRetentionHours", at: "", range: 0...maxPositionRetentionHours)
            ?? Hunt.standardPositionRetentionHours
        guard let id, let name else { return nil }
        return Hunt(id: id, name: name, defaultRadius: radius, accuracyCap: cap, start: start, end: end,
                    trails: trails, caches: caches, teams: teams, hintCost: hintCost,
                    offlineGraceMinutes: grace, courses: courses, stillOutWarningMinutes: stillOut,
                    positionRetentionHours: retention)
    }

    /// The teams a hunt lists: names as ``TeamName`` takes them, each once (ignoring case).
    private static func readTeams(_ value: JSONValue?, _ r: FieldReader) -> [String] {
        guard let value, value != .null else { return [] }
        guard let items = r.array(value, at: "teams") else { return [] }
        var seen: [String: Int] = [:]
        var teams: [String] = []
        for (i, item) in items.enumerated() {
            let path = "teams[\(i)]"
            guard case .string(let raw) = item else { r.fail(path, "\(item.shortDescription) is not a team name"); continue }
            guard let team = try? TeamName.check(raw) else {
                r.fail(path, "\"\(raw)\" is not a team name (1 to \(PlayerName.maxLength) characters, no control characters)")
                continue
            }
            if let first = seen[PlayerName.key(team)] {
                r.fail(path, "\"\(raw)\" is already teams[\(first)] (team names ignore case)")
                continue
            }
            seen[PlayerName.key(team)] = i
            teams.append(team)
        }
        return teams
    }

    private static func readCaches(_ value: JSONValue?, _ r: FieldReader) -> [Cache] {
        guard let value else { r.fail("caches", "is missing"); return [] }
        guard let items = r.array(value, at: "caches") else { return [] }
        if items.isEmpty { r.fail("caches", "is empty; a hunt needs at least one cache") }
        var seen: [String: Int] = [:]
        var caches: [Cache] = []
        for (i, item) in items.enumerated() {
            let path = "caches[\(i)]"
            guard let cache = readCache(item, at: path, r) else { continue }
            if let first = seen[cache.id] {
                r.fail("\(path).id", "\"\(cache.id)\" is already the id of caches[\(first)]")
                continue
            }
            seen[cache.id] = i
            caches.append(cache)
        }
        return caches
    }

    private static func readCache(_ value: JSONValue, at path: String, _ r: FieldReader) -> Cache? {
        guard let object = r.object(value, at: path, what: "a cache (JSON object)") else { return nil }
        r.rejectUnknown(object, allowed: cacheFields, at: path)
        let id = r.id(object, "id", at: path, maxLength: CodeAlphabet.maxCacheIDLength)
        let name = r.text(object, "name", at: path)
        let lat = r.axis(object, "lat", at: path, isLatitude: true)
        let lon = r.axis(object, "lon", at: path, isLatitude: false)
        let radius = r.radius(object, "radius", at: path)
        let difficulty = r.rating(object, "difficulty", at: path) ?? 1
        let terrain = r.rating(object, "terrain", at: path) ?? 1
        let points = r.number(object, "points", at: path, range: 0...1_000_000, integer: true).map { Int($0) }
        let message = r.text(object, "message", at: path, required: false) ?? ""
        let hint = r.text(object, "hint", at: path, required: false)
        let challenge = object["challenge"].flatMap { ChallengeReader.challenge($0, at: "\(path).challenge", r) }
        guard let id, let name, let lat, let lon else { return nil }
        return Cache(id: id, name: name, coordinate: Coordinate(latitude: lat, longitude: lon), radius: radius,
                     difficulty: difficulty, terrain: terrain, points: points, message: message, hint: hint,
                     challenge: challenge)
    }

    private static func readTrails(_ value: JSONValue?, caches: [Cache], _ r: FieldReader) -> [Trail] {
        guard let value else { return [] }
        guard let items = r.array(value, at: "trails") else { return [] }
        let known = Set(caches.map(\.id))
        var trailOf: [String: String] = [:]
        var trailIDs: Set<String> = []
        var trails: [Trail] = []
        for (i, item) in items.enumerated() {
            let path = "trails[\(i)]"
            guard let object = r.object(item, at: path, what: "a trail (JSON object)") else { continue }
            r.rejectUnknown(object, allowed: trailFields, at: path)
            let id = r.id(object, "id", at: path, maxLength: 32)
            let name = r.text(object, "name", at: path)
            let ordered = r.bool(object, "ordered", at: path) ?? false
            var members: [String] = []
            if let list = object["caches"].flatMap({ r.array($0, at: "\(path).caches") }) {
                for (j, ref) in list.enumerated() {
                    let refPath = "\(path).caches[\(j)]"
                    guard case .string(let raw) = ref else { r.fail(refPath, "\(ref.shortDescription) is not a cache id"); continue }
                    let cacheID = raw.uppercased()
                    if !known.contains(cacheID) { r.fail(refPath, "\"\(raw)\" is not the id of a cache in this hunt") }
                    else if let other = trailOf[cacheID] { r.fail(refPath, "\"\(raw)\" is already on trail \"\(other)\"") }
                    else { members.append(cacheID); trailOf[cacheID] = id ?? "?" }
                }
                if list.isEmpty { r.fail("\(path).caches", "is empty; a trail needs at least one cache") }
            } else if object["caches"] == nil {
                r.fail("\(path).caches", "is missing")
            }
            guard let id, let name else { continue }
            if !trailIDs.insert(id).inserted { r.fail("\(path).id", "\"\(id)\" is already the id of another trail"); continue }
            trails.append(Trail(id: id, name: name, ordered: ordered, cacheIDs: members))
        }
        return trails
    }
}
