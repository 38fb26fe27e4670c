import Foundation
import GeoQR

/// Writes IOF XML 3.0, the orienteering data standard that event software (MeOS, OE, SiTiming,
/// Eventor, WinSplits, LiveResults) reads: a hunt's courses as `CourseData`, the way
/// course-setting software writes them, and its course results as a `ResultList`.
///
/// Both validate against the IOF's schema (`IOF.xsd`, version 3.0).
///
/// ```swift
/// let courses = IOFWriter.courseData(hunt, created: Date())
/// let results = IOFWriter.resultList(hunt, results: CourseResults.judge(hunt: hunt, punches: punches,
///                                    massStart: nil, closed: true),
///                                    runners: ["P1": IOFRunner(name: "Ana Silva", team: "Owls")],
///                                    created: Date(), complete: true)
/// ```
public enum IOFWriter {
    /// The hunt's courses: every cache a course uses as a `Control` (starts, then controls, then
    /// finishes, as Purple Pen lists them), then every course with its `CourseControl`s in order.
    ///
    /// Line courses carry their `Length`, each leg's `LegLength` (metres along the ellipsoid,
    /// rounded) and each control's number as `MapText`; score courses carry each control's
    /// `Score` (the cache's points) instead, as Purple Pen writes them.
    ///
    /// IOF XML 3.0 has no element for a course's time limit (not on `Course`, `Class` nor
    /// `RaceClass`), nor for its kind, penalty or mass start: they are written in GeoQR's own
    /// namespace inside the course's `<Extensions>`, which the schema leaves open to other
    /// namespaces, and which other software skips:
    ///
    /// ```xml
    /// <Extensions><geoqr:Kind>score</geoqr:Kind><geoqr:TimeLimit>3600</geoqr:TimeLimit>
    ///   <geoqr:PenaltyPerMinute>2</geoqr:PenaltyPerMinute></Extensions>
    /// ```
    ///
    /// A mass-start course has no start code, so no `Start` course control.
    public static func courseData(_ hunt: Hunt, created: Date, creator: String = "GeoQR") -> String {
        var x = XMLText()
        x.text = declaration
        var root = rootAttributes(created: created, creator: creator)
        root["xmlns:geoqr"] = IOFNamespace.geoqr
        x.open("CourseData", root)
        x.open("Event")
        x.leaf("Name", IOFText.clean(hunt.name))
        x.close("Event")
        x.open("RaceCourseData")
        for (cache, type) in controls(of: hunt) {
            x.open("Control", ["type": type])
            x.leaf("Id", cache.id)
            let name = IOFText.clean(cache.name)
            if !name.isEmpty { x.leaf("Name", name) }
            x.leaf("Position", nil, ["lat": GPXWriter.decimal(cache.coordinate.latitude),
                                     "lng": GPXWriter.decimal(cache.coordinate.longitude)])
            x.close("Control")
        }
        for course in hunt.courses { writeCourse(&x, course, hunt) }
        x.close("RaceCourseData")
        x.close("CourseData")
        return x.text
    }

    private static func writeCourse(_ x: inout XMLText, _ course: Course, _ hunt: Hunt) {
        let legs = legLengths(course, hunt)
        let isLine = course.kind == .line
        x.open("Course")
        x.leaf("Id", course.id)
        x.leaf("Name", IOFText.clean(course.name))
        if isLine, let length = length(legs) { x.leaf("Length", String(length)) }
        var leg = 0
        if let start = course.start {
            x.open("CourseControl", ["type": "Start"])
            x.leaf("Control", start)
            x.close("CourseControl")
            leg += 1
        }
        for (n, control) in course.controls.enumerated() {
            x.open("CourseControl", ["type": "Control"])
            x.leaf("Control", control)
            if isLine {
                x.leaf("MapText", String(n + 1))
                if let metres = legs[leg] { x.leaf("LegLength", String(metres)) }
            } else {
                x.leaf("Score", String(hunt.cache(id: control)?.points ?? 0))
            }
            x.close("CourseControl")
            leg += 1
        }
        x.open("CourseControl", ["type": "Finish"])
        x.leaf("Control", course.finish)
        if isLine, let metres = legs[leg] { x.leaf("LegLength", String(metres)) }
        x.close("CourseControl")
        x.open("Extensions")
        x.leaf("geoqr:Kind", course.kind.rawValue)
        if let limit = course.timeLimit { x.leaf("geoqr:TimeLimit", IOFText.seconds(limit)) }
        if !isLine, course.penaltyPerMinute != 0 { x.leaf("geoqr:PenaltyPerMinute", String(course.penaltyPerMinute)) }
        if course.start == nil, let massStart = course.massStart { x.leaf("geoqr:MassStart", IOFText.time(massStart)) }
        x.close("Extensions")
        x.close("Course")
    }

    /// Each cache a course uses, once, with its control type: a start if it starts a course,
    /// else a finish if it ends one, else a control; starts first, then controls, then
    /// finishes, each in the hunt's order.
    static func controls(of hunt: Hunt) -> [(Cache, String)] {
        let starts = Set(hunt.courses.compactMap(\.start))
        let finishes = Set(hunt.courses.map(\.finish))
        let used = Set(hunt.courses.flatMap(\.caches))
        let typed = hunt.caches.filter { used.contains($0.id) }.map { cache in
            (cache, starts.contains(cache.id) ? "Start" : finishes.contains(cache.id) ? "Finish" : "Control")
        }
        return ["Start", "Control", "Finish"].flatMap { type in typed.filter { $0.1 == type } }
    }

    /// Metres from the previous point of the course to each of its caches (start, controls,
    /// finish), rounded; nil for the first point and where a cache is not in the hunt.
    static func legLengths(_ course: Course, _ hunt: Hunt) -> [Int?] {
        let points = course.caches.map { hunt.cache(id: $0)?.coordinate }
        return points.indices.map { i in
            guard i > 0, let from = points[i - 1], let to = points[i] else { return nil }
            return Int(from.distance(to: to).rounded())
        }
    }

    /// The whole course, when every leg is known.
    static func length(_ legs: [Int?]) -> Int? {
        let known = legs.dropFirst()
        return known.contains(nil) ? nil : known.reduce(0) { $0 + ($1 ?? 0) }
    }

    static let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

    static func rootAttributes(created: Date, creator: String) -> [String: String] {
        ["xmlns": IOFNamespace.iof30, "iofVersion": "3.0", "createTime": IOFText.time(created),
         "creator": IOFText.clean(creator)]
    }
}

/// Who a player is in a result list: their name as players see it, and their team, if any.
///
/// ```swift
/// let runners = ["P3": IOFRunner(name: "Ana Silva", team: "Owls")]
/// ```
public struct IOFRunner: Sendable, Equatable {
    public var name: String
    public var team: String?

    public init(name: String, team: String? = nil) {
        self.name = name
        self.team = team
    }
}
