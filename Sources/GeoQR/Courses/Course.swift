import Foundation

/// An orienteering-style way to play some of a hunt's caches (its controls), from a start to a
/// finish, against the clock.
///
/// - A **line course** is run in order: a control missed, or punched out of order, is a
///   mispunch; an optional time limit makes a slower finish "over time".
/// - A **score course** is run in any order within a time limit: each control is worth its
///   cache's points, and every minute started over the limit costs `penaltyPerMinute`.
///
/// A start is either a cache whose code the runner punches (each runner's clock starts at
/// their own punch) or, when `start` is `nil`, a mass start: every runner's clock starts at
/// ``massStart`` or, without it, when the game master starts the hunt. The finish is always a
/// code. A punch is a find: it keeps every claim rule (signed code, radius, accuracy, late
/// claims judged at the time of the scan).
///
/// ```swift
/// let course = Course(id: "YELLOW", name: "Yellow", kind: .line, start: "S1", controls: ["A1", "A2"], finish: "F1")
/// ```
public struct Course: Sendable, Equatable, Identifiable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case line, score
    }

    /// Short id in the code alphabet, upper case.
    public var id: String
    public var name: String
    public var kind: Kind
    /// The start's cache id; `nil` for a mass start.
    public var start: String?
    /// The time a mass start is given, when the hunt file fixes it; `nil` means the game
    /// master's start of the hunt. Only for a course with no start code.
    public var massStart: Date?
    /// Cache ids: in running order for a line course, any order for a score course.
    public var controls: [String]
    public var finish: String
    /// A score course's time, or a line course's longest allowed (seconds).
    public var timeLimit: TimeInterval?
    /// Points a score course takes off per minute started over the time limit.
    public var penaltyPerMinute: Int

    public init(id: String, name: String, kind: Kind, start: String?, massStart: Date? = nil, controls: [String],
                finish: String, timeLimit: TimeInterval? = nil, penaltyPerMinute: Int = 0) {
        self.id = id
        self.name = name
        self.kind = kind
        self.start = start
        self.massStart = massStart
        self.controls = controls
        self.finish = finish
        self.timeLimit = timeLimit
        self.penaltyPerMinute = penaltyPerMinute
    }

    /// Every cache the course uses: its start (if a code), controls and finish.
    public var caches: [String] { (start.map { [$0] } ?? []) + controls + [finish] }
}

extension Hunt {
    /// The course a cache starts, if any (start codes are never shared between courses).
    public func course(startingAt cacheID: String) -> Course? {
        let wanted = cacheID.uppercased()
        return courses.first { $0.start == wanted }
    }

    /// Whether the cache is a course's start or finish: a gate every runner passes, not a
    /// control.
    public func isCourseGate(_ cacheID: String) -> Bool {
        let wanted = cacheID.uppercased()
        return courses.contains { $0.start == wanted || $0.finish == wanted }
    }

    /// The hunt's mass-start course (a hunt has at most one).
    public var massStartCourse: Course? { courses.first { $0.start == nil } }

    public func course(id: String) -> Course? {
        let wanted = id.uppercased()
        return courses.first { $0.id == wanted }
    }
}
