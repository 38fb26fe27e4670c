import Foundation
import GeoQR

extension IOFCourses {
    /// A score course's time limit when the file has none: IOF XML 3.0 has no element for it.
    public static let defaultScoreTimeLimit: TimeInterval = 60 * 60

    /// The file as a GeoQR hunt: each control a cache, each course a ``Course``.
    ///
    /// - A control's code becomes its cache id when the code alphabet carries it (`31`, `S1`);
    ///   otherwise a cleaned form (`STA 1` → `STA-1`), made unique. ``notes`` says which.
    /// - A start shared by several courses (Purple Pen and OCAD give every course the same
    ///   one) becomes one start cache per course, at the same place: GeoQR tells which course
    ///   a runner runs by the start code they punch. The first course keeps the code, the
    ///   others get `S1-2`, `S1-3`…
    /// - A cache is worth its control's `<Score>` (the first course's, when courses differ),
    ///   else GeoQR's default points.
    ///
    /// ```swift
    /// let hunt = try IOFCourseReader.read(data, file: "courses.xml").hunt(id: "PARK", name: "Park score-O")
    /// hunt.course(id: "SCORE")?.timeLimit   // 3600 when the file gave none
    /// ```
    /// - throws: ``IOFError`` when a course breaks a rule GeoQR's courses keep (a start code
    ///   that is also a control, a control visited twice, two mass starts, …).
    public func hunt(id: String, name: String) throws(IOFError) -> Hunt {
        let huntID: String
        switch CodeAlphabet.canonicalID(id, maxLength: CodeAlphabet.maxHuntIDLength) {
        case .success(let ok): huntID = ok
        case .failure(let problem): throw IOFError(document: document, line: nil, message: "hunt id \"\(id)\" \(problem)")
        }
        let plan = CachePlan(self)
        var courses: [Course] = []
        var courseIDs: Set<String> = []
        for (i, course) in self.courses.enumerated() {
            let cleaned = course.id.flatMap { CachePlan.clean($0, limit: 32) } ?? CachePlan.clean(course.name, limit: 32)
            let courseID = CachePlan.unique(cleaned ?? "C\(i + 1)", in: &courseIDs, limit: 32)
            courses.append(try gameCourse(course, id: courseID, start: plan.startOf[i], plan))
        }
        try checkStarts(courses)
        var points: [String: Int] = [:]
        for course in self.courses {
            for (control, score) in course.scores where points[control] == nil { points[control] = score }
        }
        var caches: [Cache] = []
        for control in controls {
            guard let cacheID = plan.cacheID[control.id] else { continue }
            let title = control.name ?? "\(control.kind.word) \(control.id)"
            caches.append(Cache(id: cacheID, name: title, coordinate: control.coordinate, points: points[control.id]))
            for extra in plan.extraStarts[control.id] ?? [] {
                caches.append(Cache(id: extra.id, name: "\(title) (\(self.courses[extra.course].name))",
                                    coordinate: control.coordinate, points: points[control.id]))
            }
        }
        return Hunt(id: huntID, name: name, caches: caches, courses: courses)
    }

    private func gameCourse(_ course: IOFCourse, id: String, start: String?, _ plan: CachePlan) throws(IOFError) -> Course {
        func fail(_ message: String) -> IOFError {
            IOFError(document: document, line: course.line, message: "course \"\(course.name)\" \(message)")
        }
        func cache(_ code: String) throws(IOFError) -> String {
            guard let id = plan.cacheID[code] else { throw fail("names control \"\(code)\", which is not a <Control> of the file") }
            return id
        }
        let finish = try cache(course.finish)
        var controls: [String] = []
        for code in course.controls {
            let cacheID = try cache(code)
            if controls.contains(cacheID) { throw fail("visits control \"\(code)\" twice; a GeoQR course punches each control once") }
            if cacheID == finish { throw fail("visits its finish \"\(course.finish)\" as a control") }
            controls.append(cacheID)
        }
        if controls.isEmpty { throw fail("has no controls between its start and its finish") }
        if let start, start == finish { throw fail("starts and finishes at \"\(course.finish)\"; the finish needs a code of its own") }
        let limit = course.timeLimit ?? (course.kind == .score ? Self.defaultScoreTimeLimit : nil)
        if let limit, !(60...Self.longestTimeLimit).contains(limit) {
            throw fail("has time limit \(GPXWriter.decimal(limit)) s, outside 60…\(Int(Self.longestTimeLimit)) s")
        }
        guard (0...1_000_000).contains(course.penaltyPerMinute) else {
            throw fail("has penalty \(course.penaltyPerMinute) per minute, outside 0…1000000")
        }
        return Course(id: id, name: course.name, kind: course.kind, start: start,
                      massStart: start == nil ? course.massStart : nil, controls: controls, finish: finish,
                      timeLimit: limit, penaltyPerMinute: course.kind == .score ? course.penaltyPerMinute : 0)
    }

    /// A week, as hunt files allow (`timeLimitMinutes`).
    static let longestTimeLimit: TimeInterval = 7 * 24 * 60 * 60

    /// Start codes only start, one course each; a hunt has one mass start at most.
    private func checkStarts(_ courses: [Course]) throws(IOFError) {
        var startOf: [String: Int] = [:]
        var massStart: Int?
        for (i, course) in courses.enumerated() {
            if let start = course.start { startOf[start] = i; continue }
            if let first = massStart {
                throw IOFError(document: document, line: self.courses[i].line,
                               message: "course \"\(course.name)\" has no start, and course \"\(courses[first].name)\" already has the hunt's mass start; give one of them a Start control")
            }
            massStart = i
        }
        for (i, course) in courses.enumerated() {
            for cache in course.controls + [course.finish] {
                guard let other = startOf[cache] else { continue }
                throw IOFError(document: document, line: self.courses[i].line,
                               message: "course \"\(course.name)\" punches \"\(cache)\", the start of course \"\(courses[other].name)\"; a GeoQR start code only starts a course")
            }
        }
    }
}

extension IOFControl.Kind {
    var word: String {
        switch self {
        case .start: "Start"
        case .control: "Control"
        case .finish: "Finish"
        }
    }
}

/// Which cache each control becomes: ids in the code alphabet, unique, and a start of its own
/// for each course that shares one.
struct CachePlan {
    var cacheID: [String: String] = [:]
    /// The start cache of each course (by index) that has one.
    var startOf: [Int: String] = [:]
    /// The extra start caches made for a shared start, by the start's code.
    var extraStarts: [String: [(id: String, course: Int)]] = [:]
    var notes: [String] = []

    init(_ file: IOFCourses) {
        var used: Set<String> = []
        for (i, control) in file.controls.enumerated() where cacheID[control.id] == nil {
            let id = Self.unique(Self.clean(control.id, limit: CodeAlphabet.maxCacheIDLength) ?? "C\(i + 1)", in: &used,
                                 limit: CodeAlphabet.maxCacheIDLength)
            cacheID[control.id] = id
            if id != control.id.uppercased() {
                notes.append("\(file.document):\(control.line): control \"\(control.id)\" is cache \(id) (GeoQR codes carry letters, digits and hyphens, at most \(CodeAlphabet.maxCacheIDLength))")
            }
        }
        var coursesOfStart: [String: [Int]] = [:]
        for (i, course) in file.courses.enumerated() {
            guard let start = course.start, let base = cacheID[start] else { continue }
            if coursesOfStart[start] == nil {
                startOf[i] = base
            } else {
                let id = Self.unique(base, in: &used, limit: CodeAlphabet.maxCacheIDLength)
                extraStarts[start, default: []].append((id, i))
                startOf[i] = id
            }
            coursesOfStart[start, default: []].append(i)
        }
        for control in file.controls {
            guard let courses = coursesOfStart[control.id], courses.count > 1 else { continue }
            let each = courses.map { "\(startOf[$0] ?? "?") (\(file.courses[$0].name))" }.joined(separator: ", ")
            notes.append("\(file.document):\(control.line): start \"\(control.id)\" begins \(courses.count) courses; GeoQR gives each its own start code: \(each)")
        }
    }

    /// The id in the code alphabet: as it is when it fits, else upper case with every other
    /// character a hyphen, cut to `limit`; nil when nothing is left.
    static func clean(_ raw: String, limit: Int) -> String? {
        if case .success(let ok) = CodeAlphabet.canonicalID(raw, maxLength: limit) { return ok }
        let mapped = String(raw.uppercased().map { CodeAlphabet.idCharacters.contains($0) ? $0 : "-" })
        let words = mapped.split(separator: "-").joined(separator: "-")
        let cut = String(words.prefix(limit)).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return cut.isEmpty ? nil : cut
    }

    /// `base`, or `base-2`, `base-3`… (cut to fit `limit`) when it is taken; the result is taken.
    static func unique(_ base: String, in used: inout Set<String>, limit: Int) -> String {
        var id = base
        var n = 2
        while used.contains(id) {
            let suffix = "-\(n)"
            id = String(base.prefix(limit - suffix.count)) + suffix
            n += 1
        }
        used.insert(id)
        return id
    }
}
