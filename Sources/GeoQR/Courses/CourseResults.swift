import Foundation

/// A course's results: every run, placed ones first with their ranks.
public struct CourseResults: Sendable, Equatable, Codable {
    public struct Line: Sendable, Equatable, Codable {
        /// 1, 2, 2, 4…; `nil` for a run that is not placed (running, mispunch, did not
        /// finish, disqualified, or a line course over time).
        public var rank: Int?
        public var run: CourseRun
    }

    public var course: String
    public var name: String
    public var kind: Course.Kind
    /// The course's controls, in the file's order (the running order of a line course).
    public var controls: [String]
    public var lines: [Line]

    /// Every course of `hunt` with its runs. A runner runs the course whose start code they
    /// punched first, from that punch; a runner who punched no start code but punched one of
    /// the mass-start course's caches after its start runs that course from the mass start.
    ///
    /// - Parameters:
    ///   - punches: each player's live finds.
    ///   - massStart: when the mass-start course started (its `massStart`, else the game
    ///     master's start of the hunt); `nil` while it has not.
    ///   - closed: the hunt has ended, so runners without a finish did not finish.
    public static func judge(hunt: Hunt, punches: [String: [Punch]], massStart: Date?, closed: Bool,
                             disqualified: Set<String> = []) -> [CourseResults] {
        var runs: [String: [CourseRun]] = [:]
        for (player, finds) in punches {
            guard let (course, start) = entry(hunt: hunt, punches: finds, massStart: massStart) else { continue }
            runs[course.id, default: []].append(CourseRun.judge(
                course: course, hunt: hunt, player: player, start: start, punches: finds, closed: closed,
                disqualified: disqualified.contains(player)))
        }
        return hunt.courses.map { course in
            CourseResults(course: course.id, name: course.name, kind: course.kind, controls: course.controls,
                          lines: placed(runs[course.id] ?? [], kind: course.kind))
        }
    }

    /// The course a runner runs and their start, from their punches.
    static func entry(hunt: Hunt, punches: [Punch], massStart: Date?) -> (Course, Date)? {
        let starts = punches.compactMap { punch in hunt.course(startingAt: punch.cache).map { ($0, punch.time) } }
        if let first = starts.min(by: { $0.1 < $1.1 }) { return first }
        guard let course = hunt.massStartCourse, let start = course.massStart ?? massStart else { return nil }
        let caches = Set(course.caches)
        guard punches.contains(where: { caches.contains($0.cache) && $0.time >= start }) else { return nil }
        return (course, start)
    }

    /// Placed runs first, best first (a line course by time; a score course by score, then
    /// time), equal ones sharing a rank; then the others by status and player.
    static func placed(_ runs: [CourseRun], kind: Course.Kind) -> [Line] {
        let (inPlace, others) = (runs.filter { $0.status.isPlaced(on: kind) }, runs.filter { !$0.status.isPlaced(on: kind) })
        let key: (CourseRun) -> (Int, TimeInterval) = { (kind == .score ? -$0.score : 0, $0.elapsed ?? .infinity) }
        let best = inPlace.sorted { key($0) == key($1) ? $0.player < $1.player : key($0) < key($1) }
        var lines: [Line] = []
        for (i, run) in best.enumerated() {
            let rank = lines.last.flatMap { previous in key(previous.run) == key(run) ? previous.rank : nil } ?? i + 1
            lines.append(Line(rank: rank, run: run))
        }
        let order = CourseStatus.allCases
        lines += others.sorted {
            let (a, b) = (order.firstIndex(of: $0.status) ?? 0, order.firstIndex(of: $1.status) ?? 0)
            return a == b ? $0.player < $1.player : a < b
        }.map { Line(rank: nil, run: $0) }
        return lines
    }
}
