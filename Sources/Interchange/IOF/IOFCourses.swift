import Foundation
import GeoQR

/// The namespaces of an IOF XML 3.0 document: the standard's, and GeoQR's own for what the
/// standard has no element for (a course's kind, time limit, penalty and mass start), written
/// inside `<Extensions>`, which the schema lets any other namespace fill.
enum IOFNamespace {
    static let iof30 = "http://www.orienteering.org/datastandard/3.0"
    static let geoqr = "https://geoqr.example/iof/1"
}

/// The controls and courses of an IOF XML 3.0 `CourseData` file, as course-setting software
/// (Purple Pen, OCAD, Condes) exports them, read by ``IOFCourseReader``.
///
/// ```swift
/// let file = try IOFCourseReader.read(data, file: "courses.xml")
/// let hunt = try file.hunt(id: "PARK", name: "Park score-O")
/// file.notes   // ["courses.xml:40: course \"Score\" has no time limit in the file (…); GeoQR gives it 60 minutes"]
/// ```
public struct IOFCourses: Sendable, Equatable {
    /// The file's name, as errors and notes name it.
    public var document: String
    /// The event's `<Name>`.
    public var event: String?
    /// Starts, controls and finishes, in file order; crossing points and ends of marked routes
    /// (which nobody punches) are left out.
    public var controls: [IOFControl]
    public var courses: [IOFCourse]
    /// What the reader assumed or changed, one line each (`FILE:LINE: …`).
    public var notes: [String]

    public init(document: String, event: String? = nil, controls: [IOFControl], courses: [IOFCourse], notes: [String] = []) {
        self.document = document
        self.event = event
        self.controls = controls
        self.courses = courses
        self.notes = notes
    }
}

/// A control as the file gives it: its code, where it is, and what it is.
public struct IOFControl: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable {
        case start, control, finish
    }

    /// The control's code in the file (`31`, `S1`, `STA1`).
    public var id: String
    public var name: String?
    public var coordinate: Coordinate
    /// The `type` the file gives the control; without one, the part it plays in the courses.
    public var kind: Kind
    /// Line of its `<Control>`.
    public var line: Int

    public init(id: String, name: String? = nil, coordinate: Coordinate, kind: Kind, line: Int = 0) {
        self.id = id
        self.name = name
        self.coordinate = coordinate
        self.kind = kind
        self.line = line
    }
}

/// A course as the file gives it, its controls named by the file's codes.
public struct IOFCourse: Sendable, Equatable {
    public var name: String
    /// The course's `<Id>`, when the file gives one (GeoQR's export does; Purple Pen does not).
    public var id: String?
    /// Score when its controls carry a `<Score>` or GeoQR's extension says so; else line.
    public var kind: Course.Kind
    /// The start's code; `nil` when the course has no start control (a mass start).
    public var start: String?
    /// In running order (a score course: the order the file lists them).
    public var controls: [String]
    public var finish: String
    /// The `<Score>` of each control that has one.
    public var scores: [String: Int]
    /// Seconds, from GeoQR's extension; a score course without one gets ``IOFCourses/defaultScoreTimeLimit``.
    public var timeLimit: TimeInterval?
    public var penaltyPerMinute: Int
    public var massStart: Date?
    /// Line of its `<Course>`.
    public var line: Int

    public init(name: String, id: String? = nil, kind: Course.Kind, start: String?, controls: [String], finish: String,
                scores: [String: Int] = [:], timeLimit: TimeInterval? = nil, penaltyPerMinute: Int = 0,
                massStart: Date? = nil, line: Int = 0) {
        self.name = name
        self.id = id
        self.kind = kind
        self.start = start
        self.controls = controls
        self.finish = finish
        self.scores = scores
        self.timeLimit = timeLimit
        self.penaltyPerMinute = penaltyPerMinute
        self.massStart = massStart
        self.line = line
    }
}

/// An IOF file GeoQR cannot use, in one line: `courses.xml:12: control "31" has no <Position> …`.
public struct IOFError: Error, Sendable, Equatable, CustomStringConvertible {
    public var document: String
    public var line: Int?
    public var message: String

    public init(document: String, line: Int?, message: String) {
        self.document = document
        self.line = line
        self.message = message
    }

    public var description: String {
        if let line, line > 0 { return "\(document):\(line): \(message)" }
        return "\(document): \(message)"
    }
}
