import Foundation

/// Reads a hunt file's `courses` (``Course``), recording every problem with its path.
enum CourseReader {
    private static let fields: Set = ["id", "name", "kind", "start", "massStart", "controls", "finish",
                                      "timeLimitMinutes", "penaltyPerMinute"]
    /// A week: no course runs longer than the longest a late claim may wait.
    static let maxMinutes = HuntParser.maxOfflineGraceMinutes

    static func courses(_ value: JSONValue?, caches: [Cache], _ r: FieldReader) -> [Course] {
        guard let value, value != .null else { return [] }
        guard let items = r.array(value, at: "courses") else { return [] }
        let known = Set(caches.map(\.id))
        var courses: [Course] = []
        var courseIndex: [String: Int] = [:]
        // Start codes start one course each and do nothing else: the first start a runner
        // punches says which course they run.
        var startOf: [String: String] = [:]
        var massStart: String?
        for (i, item) in items.enumerated() {
            let path = "courses[\(i)]"
            guard let course = course(item, at: path, known: known, r) else { continue }
            if let first = courseIndex[course.id] {
                r.fail("\(path).id", "\"\(course.id)\" is already the id of courses[\(first)]")
                continue
            }
            courseIndex[course.id] = i
            if let start = course.start {
                if let other = startOf[start] {
                    r.fail("\(path).start", "\"\(start)\" already starts course \(other); each course needs its own start code")
                }
                startOf[start] = course.id
            } else if let other = massStart {
                r.fail("\(path).start", "is missing, and course \(other) already has the hunt's mass start; give this course a start code")
            } else {
                massStart = course.id
            }
            courses.append(course)
        }
        for (i, course) in courses.enumerated() {
            let path = "courses[\(courseIndex[course.id] ?? i)]"
            for (j, control) in course.controls.enumerated() {
                if let other = startOf[control] {
                    r.fail("\(path).controls[\(j)]", "\"\(control)\" is the start of course \(other); a start code only starts")
                }
            }
            if let other = startOf[course.finish] {
                r.fail("\(path).finish", "\"\(course.finish)\" is the start of course \(other); a start code only starts")
            }
        }
        return courses
    }

    private static func course(_ value: JSONValue, at path: String, known: Set<String>, _ r: FieldReader) -> Course? {
        guard let object = r.object(value, at: path, what: "a course (JSON object)") else { return nil }
        r.rejectUnknown(object, allowed: fields, at: path)
        let id = r.id(object, "id", at: path, maxLength: 32)
        let name = r.text(object, "name", at: path)
        let kind: Course.Kind? = r.text(object, "kind", at: path).flatMap { raw in
            guard let kind = Course.Kind(rawValue: raw) else {
                r.fail("\(path).kind", "\"\(raw)\" is not a kind of course (line or score)")
                return nil
            }
            return kind
        }
        let start = cacheRef(object, "start", at: path, known: known, required: false, r)
        let massStart = r.date(object, "massStart", at: path)
        if start != nil, massStart != nil {
            r.fail("\(path).massStart", "is set, but the course starts with a code (start); drop one of them")
        }
        let finish = cacheRef(object, "finish", at: path, known: known, required: true, r)
        if let start, start == finish {
            r.fail("\(path).finish", "\"\(start)\" is also the start; the finish needs a code of its own")
        }
        let controls = controlList(object["controls"], at: "\(path).controls", known: known,
                                   ends: Set([start, finish].compactMap { $0 }), r)
        let limit = r.number(object, "timeLimitMinutes", at: path, range: 1...maxMinutes).map { $0 * 60 }
        let penalty = r.number(object, "penaltyPerMinute", at: path, range: 0...1_000_000, integer: true).map { Int($0) }
        if kind == .score, limit == nil, object["timeLimitMinutes"] == nil {
            r.fail("\(path).timeLimitMinutes", "is missing; a score course needs a time limit")
        }
        if kind == .line, penalty != nil {
            r.fail("\(path).penaltyPerMinute", "is for score courses; a line course over its time limit is simply over time")
        }
        guard let id, let name, let kind, let finish, let controls else { return nil }
        return Course(id: id, name: name, kind: kind, start: start, massStart: massStart, controls: controls,
                      finish: finish, timeLimit: limit, penaltyPerMinute: penalty ?? 0)
    }

    private static func cacheRef(_ object: [String: JSONValue], _ key: String, at path: String, known: Set<String>,
                                 required: Bool, _ r: FieldReader) -> String? {
        guard let raw = r.text(object, key, at: path, required: required) else { return nil }
        let id = raw.uppercased()
        guard known.contains(id) else {
            r.fail("\(path).\(key)", "\"\(raw)\" is not the id of a cache in this hunt")
            return nil
        }
        return id
    }

    private static func controlList(_ value: JSONValue?, at path: String, known: Set<String>, ends: Set<String>,
                                    _ r: FieldReader) -> [String]? {
        guard let value else { r.fail(path, "is missing"); return nil }
        guard let items = r.array(value, at: path) else { return nil }
        if items.isEmpty { r.fail(path, "is empty; a course needs at least one control"); return nil }
        var seen: [String: Int] = [:]
        var controls: [String] = []
        for (j, item) in items.enumerated() {
            let itemPath = "\(path)[\(j)]"
            guard case .string(let raw) = item else { r.fail(itemPath, "\(item.shortDescription) is not a cache id"); continue }
            let id = raw.uppercased()
            if !known.contains(id) { r.fail(itemPath, "\"\(raw)\" is not the id of a cache in this hunt"); continue }
            if ends.contains(id) { r.fail(itemPath, "\"\(raw)\" is this course's start or finish, not a control"); continue }
            if let first = seen[id] {
                r.fail(itemPath, "\"\(raw)\" is already controls[\(first)]; a control is punched once")
                continue
            }
            seen[id] = j
            controls.append(id)
        }
        return controls
    }
}
