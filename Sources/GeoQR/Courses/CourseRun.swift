import Foundation

/// A punch: a live find of one of a course's caches, at the time its code was scanned.
public struct Punch: Sendable, Equatable {
    public var cache: String
    public var time: Date

    public init(cache: String, time: Date) {
        self.cache = cache
        self.time = time
    }
}

/// Where a runner stands on a course, as orienteering says it.
public enum CourseStatus: String, Sendable, Codable, CaseIterable {
    /// Started, not finished, and the course is still open.
    case running
    case ok
    /// A line course finished with a control missing or punched out of order.
    case mispunch
    /// Started and never finished before the course closed.
    case didNotFinish
    /// Finished after the time limit (a score course still scores, less its penalty).
    case overTime
    case disqualified

    /// Whether the run is placed in the results (a line course places only OK runs; a score
    /// course also places those over time, whose penalty already counts).
    func isPlaced(on kind: Course.Kind) -> Bool {
        self == .ok || (kind == .score && self == .overTime)
    }
}

/// One runner's run of a course: start, finish, a split per control and a status, judged from
/// their punches by ``judge(course:hunt:start:punches:closed:disqualified:)``.
public struct CourseRun: Sendable, Equatable, Codable {
    public struct Split: Sendable, Equatable, Codable {
        public var control: String
        /// Seconds from the start to the punch; `nil` for a control not punched (or, on a line
        /// course, punched out of order).
        public var time: TimeInterval?
        /// Seconds since the previous punched control (or the start).
        public var leg: TimeInterval?
    }

    public var course: String
    public var kind: Course.Kind
    public var player: String
    public var start: Date
    public var finish: Date?
    /// Seconds from start to finish.
    public var elapsed: TimeInterval?
    /// A line course's controls in order; a score course's punched controls in the order they
    /// were punched, then those not punched.
    public var splits: [Split]
    public var status: CourseStatus
    /// A score course: the points of the controls punched before the finish; a line course: 0.
    public var points: Int
    /// A score course's penalty for the minutes started over its time limit.
    public var penalty: Int
    /// `points - penalty`, never below 0.
    public var score: Int
    /// The latest punch of the run (the start when there is none): the last time the course
    /// saw the runner.
    public var lastPunch: Date

    /// Judges a run. `punches` are the runner's live finds (any order; those before `start`
    /// or after the finish do not count); `closed` says the course has ended, so a runner
    /// without a finish did not finish.
    ///
    /// ```swift
    /// let run = CourseRun.judge(course: yellow, hunt: hunt, player: "P1", start: t0,
    ///                           punches: [Punch(cache: "A1", time: t1), Punch(cache: "F1", time: t2)], closed: true)
    /// run.status   // .mispunch when yellow also has A2
    /// ```
    public static func judge(course: Course, hunt: Hunt, player: String, start: Date, punches: [Punch],
                             closed: Bool, disqualified: Bool = false) -> CourseRun {
        let ordered = punches.filter { $0.time >= start }.sorted { $0.time < $1.time }
        let finish = ordered.first { $0.cache == course.finish }?.time
        let counted = ordered.filter { punch in punch.cache != course.finish && finish.map { punch.time <= $0 } ?? true }
        let controls = Set(course.controls)
        var splits: [Split] = []
        var points = 0
        switch course.kind {
        case .line:
            // Each control in order takes its punch only after the one before: a control
            // punched early is missing, and the controls after it still count.
            var previous = start
            for control in course.controls {
                if let punch = counted.first(where: { $0.cache == control && $0.time > previous }) {
                    splits.append(Split(control: control, time: seconds(from: start, to: punch.time),
                                        leg: seconds(from: previous, to: punch.time)))
                    previous = punch.time
                } else {
                    splits.append(Split(control: control, time: nil, leg: nil))
                }
            }
        case .score:
            var previous = start
            var punched: Set<String> = []
            for punch in counted where controls.contains(punch.cache) && punched.insert(punch.cache).inserted {
                splits.append(Split(control: punch.cache, time: seconds(from: start, to: punch.time),
                                    leg: seconds(from: previous, to: punch.time)))
                previous = punch.time
                points += hunt.cache(id: punch.cache)?.points ?? 0
            }
            splits += course.controls.filter { !punched.contains($0) }.map { Split(control: $0, time: nil, leg: nil) }
        }
        let elapsed = finish.map { seconds(from: start, to: $0) }
        var penalty = 0
        if course.kind == .score, let elapsed, let limit = course.timeLimit, elapsed > limit {
            penalty = Int(((elapsed - limit) / 60).rounded(.up)) * course.penaltyPerMinute
        }
        let status: CourseStatus
        if disqualified {
            status = .disqualified
        } else if let elapsed {
            if course.kind == .line, splits.contains(where: { $0.time == nil }) {
                status = .mispunch
            } else if let limit = course.timeLimit, elapsed > limit {
                status = .overTime
            } else {
                status = .ok
            }
        } else {
            status = closed ? .didNotFinish : .running
        }
        let last = counted.last.map(\.time) ?? start
        return CourseRun(course: course.id, kind: course.kind, player: player, start: start, finish: finish, elapsed: elapsed,
                         splits: splits, status: status, points: points, penalty: penalty,
                         score: max(0, points - penalty), lastPunch: max(last, finish ?? last))
    }

    /// Seconds between two times, to the millisecond a find keeps (so that 22 minutes is 1320,
    /// not 1319.9999998).
    static func seconds(from a: Date, to b: Date) -> TimeInterval {
        (b.timeIntervalSince(a) * 1000).rounded() / 1000
    }

    /// The next control to punch: a line course's first not yet punched after the last one
    /// punched in order; a score course has none (any order), so `nil`, as for a finished run.
    public var nextControl: String? {
        guard finish == nil, kind == .line else { return nil }
        guard let lastPunched = splits.lastIndex(where: { $0.time != nil }) else {
            return splits.first.map(\.control)
        }
        return splits.dropFirst(lastPunched + 1).first?.control
    }
}
