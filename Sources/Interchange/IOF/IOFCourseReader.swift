import Foundation
import GeoQR

/// Reads an IOF XML 3.0 `CourseData` file (Purple Pen, OCAD, Condes, or GeoQR's own
/// ``IOFWriter/courseData(_:created:creator:)``) through the same streaming reader as GPX, with
/// the same limits: no DTD, no entities, libxml2's depth and text limits, and no more bytes than
/// a pocket query's entry (``ZipPocketQuery/maxEntrySize``).
///
/// Only the first race's `RaceCourseData` is read. Every control needs a `<Position>` (latitude
/// and longitude): map millimetres (`<MapPosition>`) alone cannot place a cache.
///
/// ```swift
/// let file = try IOFCourseReader.read(try Data(contentsOf: url), file: "courses.xml")
/// print(file.controls.count, file.courses.map(\.name), file.notes)
/// ```
public enum IOFCourseReader {
    /// - throws: ``IOFError``, one line naming the file, the line, the element and the value.
    public static func read(_ data: Data, file: String) throws(IOFError) -> IOFCourses {
        guard data.count <= ZipPocketQuery.maxEntrySize else {
            throw IOFError(document: file, line: nil, message: "is \(data.count) bytes, more than the \(ZipPocketQuery.maxEntrySize)-byte limit")
        }
        if data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw IOFError(document: file, line: nil, message: "is empty, not an IOF XML 3.0 course file")
        }
        do {
            let stream = try XMLStream(data: data, name: file)
            var state = CourseDataState(document: file)
            while let event = try stream.next() {
                switch event {
                case .start(let element): try state.start(element)
                case .text(let text): state.text(text)
                case .end: try state.end()
                }
            }
            return try state.finish()
        } catch let error as IOFError {
            throw error
        } catch let error as XMLStreamError {
            // The stream's DOCTYPE refusal speaks of GPX.
            let message = error.message.hasPrefix("has a DOCTYPE")
                ? "has a DOCTYPE; DTDs and entities are refused (IOF XML does not use them)" : error.message
            throw IOFError(document: error.document, line: error.line, message: message)
        } catch {
            throw IOFError(document: file, line: nil, message: "\(error)")
        }
    }
}

/// A `<Control>` or `<Course>` while its element is open.
private struct OpenControl {
    var line: Int
    var type: String?
    var id: String?
    var name: String?
    var coordinate: Coordinate?
    var hasMapPosition = false
}

private struct OpenCourseControl {
    var line: Int
    var type: String?
    var codes: [String] = []
    var score: Int?
}

private struct OpenCourse {
    var line: Int
    var id: String?
    var name: String?
    var legs: [OpenCourseControl] = []
    var kind: Course.Kind?
    var timeLimit: TimeInterval?
    var penalty: Int?
    var massStart: Date?
}

/// The reader's position: the open elements, the control or course being filled, its text.
private struct CourseDataState {
    /// An open element: its local name and whether it is in the IOF namespace (`ours`: GeoQR's).
    struct Open { var name: String; var iof: Bool; var ours: Bool }

    let document: String
    var stack: [Open] = []
    var sawRoot = false
    var iofNamespace = IOFNamespace.iof30
    var races = 0
    var skipDepth: Int?
    var text = ""
    var event: String?
    var control: OpenControl?
    var course: OpenCourse?
    var leg: OpenCourseControl?
    var controls: [OpenControl] = []
    var courses: [OpenCourse] = []

    init(document: String) { self.document = document }

    func fail(_ line: Int?, _ message: String) -> IOFError {
        IOFError(document: document, line: line, message: message)
    }

    /// The names of the open elements from the root, `parent` being the innermost.
    func inside(_ names: String...) -> Bool {
        let open = stack.dropLast()
        guard open.count >= names.count else { return false }
        return zip(open.suffix(names.count), names).allSatisfy { $0.iof && $0.name == $1 }
    }

    mutating func start(_ e: XMLElementStart) throws(IOFError) {
        if !sawRoot {
            try checkRoot(e)
            sawRoot = true
            iofNamespace = e.namespace   // IOF's, or none with iofVersion="3.0"
        }
        let iof = e.namespace == iofNamespace
        let ours = e.namespace == IOFNamespace.geoqr
        stack.append(Open(name: e.name, iof: iof, ours: ours))
        text = ""
        if skipDepth != nil { return }
        guard iof || ours else { skipDepth = stack.count; return }
        if ours { return }
        switch e.name {
        case "RaceCourseData" where inside("CourseData"):
            races += 1
            if races > 1 { skipDepth = stack.count }   // a later race: GeoQR reads one
        case "Control" where inside("RaceCourseData"):
            control = OpenControl(line: e.line, type: e.attributes["type"])
        case "Position" where inside("RaceCourseData", "Control"):
            let coordinate = try position(e)
            control?.coordinate = coordinate
        case "MapPosition" where inside("RaceCourseData", "Control"):
            control?.hasMapPosition = true
        case "Course" where inside("RaceCourseData"):
            course = OpenCourse(line: e.line)
        case "CourseControl" where inside("RaceCourseData", "Course"):
            leg = OpenCourseControl(line: e.line, type: e.attributes["type"])
        default:
            break
        }
    }

    mutating func text(_ s: String) {
        // Reset at every tag, so it holds no more than one element's own text.
        if skipDepth == nil { text += s }
    }

    mutating func end() throws(IOFError) {
        guard let open = stack.popLast() else { return }
        let value = IOFText.clean(text).trimmingCharacters(in: .whitespacesAndNewlines)
        text = ""
        if let depth = skipDepth {
            if stack.count + 1 == depth { skipDepth = nil }
            return
        }
        if open.ours {
            if inside("RaceCourseData", "Course"), stack.last?.name == "Extensions" { try extensionValue(open.name, value) }
            return
        }
        stack.append(open)           // so that inside(…) reads the element's parents
        defer { stack.removeLast() }
        switch open.name {
        case "Name" where inside("CourseData", "Event"):
            event = value.isEmpty ? nil : value
        case "Id" where inside("RaceCourseData", "Control"):
            control?.id = value
        case "Name" where inside("RaceCourseData", "Control"):
            if control?.name == nil, !value.isEmpty { control?.name = value }
        case "Control" where inside("RaceCourseData"):
            if let control { controls.append(try checked(control)) }
            control = nil
        case "Id" where inside("RaceCourseData", "Course"):
            course?.id = value.isEmpty ? nil : value
        case "Name" where inside("RaceCourseData", "Course"):
            course?.name = value.isEmpty ? nil : value
        case "Control" where inside("RaceCourseData", "Course", "CourseControl"):
            leg?.codes.append(value)
        case "Score" where inside("RaceCourseData", "Course", "CourseControl"):
            let score = try points(value, line: leg?.line)
            leg?.score = score
        case "CourseControl" where inside("RaceCourseData", "Course"):
            if let leg { course?.legs.append(leg) }
            leg = nil
        case "Course" where inside("RaceCourseData"):
            if let course { courses.append(course) }
            course = nil
        default:
            break
        }
    }

    private func checkRoot(_ e: XMLElementStart) throws(IOFError) {
        guard e.name == "CourseData" else {
            throw fail(e.line, "root element is <\(e.name)>, not <CourseData>: not an IOF XML 3.0 course file")
        }
        let version = e.attributes["iofVersion"]
        guard e.namespace == IOFNamespace.iof30 || (e.namespace.isEmpty && version == "3.0") else {
            let what = e.namespace.isEmpty ? "has no namespace and no iofVersion=\"3.0\" (IOF XML 2.0.3?)"
                                           : "is in namespace \"\(e.namespace)\""
            throw fail(e.line, "<CourseData> \(what), not IOF XML 3.0 (\(IOFNamespace.iof30)); export IOF XML 3.0")
        }
        if let version, version != "3.0" {
            throw fail(e.line, "<CourseData iofVersion=\"\(version)\"> is not IOF XML 3.0")
        }
    }

    private func position(_ e: XMLElementStart) throws(IOFError) -> Coordinate {
        func axis(_ key: String, _ what: String, _ limit: Double) throws(IOFError) -> Double {
            guard let raw = e.attributes[key] else { throw fail(e.line, "<Position> has no \(key) attribute (\(what))") }
            guard let value = Double(raw.trimmingCharacters(in: .whitespaces)), value.isFinite else {
                throw fail(e.line, "<Position \(key)=\"\(raw)\"> is not a number")
            }
            guard abs(value) <= limit else {
                throw fail(e.line, "<Position \(key)=\"\(raw)\"> is not a \(what) (-\(Int(limit))…\(Int(limit)))")
            }
            return value
        }
        return Coordinate(latitude: try axis("lat", "latitude", 90), longitude: try axis("lng", "longitude", 180))
    }

    private func checked(_ c: OpenControl) throws(IOFError) -> OpenControl {
        guard let id = c.id, !id.isEmpty else { throw fail(c.line, "<Control> has no <Id> (its code)") }
        if let type = c.type, !Self.controlTypes.contains(type) {
            throw fail(c.line, "<Control type=\"\(type)\"> of control \"\(id)\" is not an IOF control type")
        }
        if c.coordinate == nil, !Self.unpunched.contains(c.type ?? "") {
            let why = c.hasMapPosition ? "only a <MapPosition> (map millimetres)" : "no <Position>"
            throw fail(c.line, "control \"\(id)\" has \(why); GeoQR needs its latitude and longitude (<Position lat lng>): georeference the map and export again")
        }
        return c
    }

    private func points(_ raw: String, line: Int?) throws(IOFError) -> Int {
        guard let value = Double(raw), value.isFinite, value == value.rounded(), (0...1_000_000).contains(value) else {
            throw fail(line, "<Score>\(raw)</Score> is not a whole number of points (0…1000000)")
        }
        return Int(value)
    }

    private mutating func extensionValue(_ name: String, _ value: String) throws(IOFError) {
        let line = course?.line
        switch name {
        case "Kind":
            guard let kind = Course.Kind(rawValue: value) else {
                throw fail(line, "<geoqr:Kind>\(value)</geoqr:Kind> is not a kind of course (line or score)")
            }
            course?.kind = kind
        case "TimeLimit":
            guard let seconds = Double(value), seconds.isFinite else {
                throw fail(line, "<geoqr:TimeLimit>\(value)</geoqr:TimeLimit> is not a number of seconds")
            }
            course?.timeLimit = seconds
        case "PenaltyPerMinute":
            guard let penalty = Int(value) else {
                throw fail(line, "<geoqr:PenaltyPerMinute>\(value)</geoqr:PenaltyPerMinute> is not a whole number")
            }
            course?.penalty = penalty
        case "MassStart":
            guard let date = IOFText.date(value) else {
                throw fail(line, "<geoqr:MassStart>\(value)</geoqr:MassStart> is not an ISO 8601 time")
            }
            course?.massStart = date
        default:
            break
        }
    }

    static let controlTypes: Set = ["Control", "Start", "Finish", "CrossingPoint", "EndOfMarkedRoute"]
    /// Control types nobody punches: left out of the hunt.
    static let unpunched: Set = ["CrossingPoint", "EndOfMarkedRoute"]

    func finish() throws(IOFError) -> IOFCourses {
        guard sawRoot else { throw fail(nil, "is empty, not an IOF XML 3.0 course file") }
        guard races > 0 else { throw fail(nil, "<CourseData> has no <RaceCourseData> (no controls or courses)") }
        var notes: [String] = []
        if races > 1 { notes.append("\(document): read the first of \(races) races (<RaceCourseData>); the others were skipped") }
        var byID: [String: OpenControl] = [:]
        for control in controls {
            let id = control.id ?? ""
            if let first = byID[id] {
                throw fail(control.line, "control \"\(id)\" is defined twice (first at line \(first.line))")
            }
            byID[id] = control
        }
        var read: [IOFCourse] = []
        for (i, course) in courses.enumerated() {
            read.append(try resolve(course, number: i + 1, controls: byID, notes: &notes))
        }
        let starts = Set(read.compactMap(\.start)), finishes = Set(read.map(\.finish))
        let kept = controls.filter { !Self.unpunched.contains($0.type ?? "") }.map { c -> IOFControl in
            let id = c.id ?? ""
            let kind: IOFControl.Kind = switch c.type {
            case "Start": .start
            case "Finish": .finish
            case "Control": .control
            default: starts.contains(id) ? .start : finishes.contains(id) ? .finish : .control
            }
            return IOFControl(id: id, name: c.name, coordinate: c.coordinate!, kind: kind, line: c.line)
        }
        var file = IOFCourses(document: document, event: event, controls: kept, courses: read)
        file.notes = notes + CachePlan(file).notes
        return file
    }

    /// A course's legs as start, controls and finish: each leg's type is its own, else its
    /// control's; the first leg is the start when it is one (else a mass start), the last must
    /// be the finish, and the legs between are its controls (a map exchange's Start among them).
    private func resolve(_ c: OpenCourse, number: Int, controls: [String: OpenControl],
                         notes: inout [String]) throws(IOFError) -> IOFCourse {
        let name = c.name ?? c.id ?? "Course \(number)"
        func fail(_ line: Int, _ message: String) -> IOFError { self.fail(line, "course \"\(name)\": \(message)") }
        var legs: [(code: String, type: String, score: Int?, line: Int)] = []
        for leg in c.legs {
            guard let code = leg.codes.first, !code.isEmpty else { throw fail(leg.line, "<CourseControl> names no <Control>") }
            if leg.codes.count > 1 {
                throw fail(leg.line, "<CourseControl> offers \(leg.codes.count) controls to choose from (\(leg.codes.joined(separator: ", "))); a GeoQR course has one control per leg")
            }
            guard let control = controls[code] else {
                throw fail(leg.line, "<CourseControl> names control \"\(code)\", which is not a <Control> of the file")
            }
            let type = leg.type ?? control.type ?? "Control"
            guard Self.controlTypes.contains(type) else {
                throw fail(leg.line, "<CourseControl type=\"\(type)\"> is not an IOF control type")
            }
            if Self.unpunched.contains(type) || Self.unpunched.contains(control.type ?? "") { continue }
            legs.append((code, type, leg.score, leg.line))
        }
        guard let last = legs.last, last.type == "Finish" else {
            let what = legs.last.map { "its last <CourseControl> is \"\($0.code)\", type \($0.type)" } ?? "it has no <CourseControl>"
            throw self.fail(c.line, "course \"\(name)\" does not end at a Finish (\(what))")
        }
        let start = legs.first.flatMap { $0.type == "Start" && legs.count > 1 ? $0.code : nil }
        let middle = legs.dropFirst(start == nil ? 0 : 1).dropLast()
        if let early = middle.first(where: { $0.type == "Finish" }) {
            throw self.fail(early.line, "course \"\(name)\" reaches Finish \"\(early.code)\" before its last control")
        }
        var scores: [String: Int] = [:]
        for leg in middle { if let score = leg.score { scores[leg.code] = score } }
        let kind = c.kind ?? (scores.isEmpty ? .line : .score)
        var limit = c.timeLimit
        if kind == .score, limit == nil {
            limit = IOFCourses.defaultScoreTimeLimit
            notes.append("\(document):\(c.line): course \"\(name)\" has no time limit in the file (IOF XML 3.0 has no element for it); GeoQR gives it \(Int(limit! / 60)) minutes")
        }
        return IOFCourse(name: name, id: c.id, kind: kind, start: start, controls: middle.map(\.code), finish: last.code,
                         scores: scores, timeLimit: limit, penaltyPerMinute: c.penalty ?? 0, massStart: c.massStart, line: c.line)
    }
}
