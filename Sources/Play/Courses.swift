import Foundation
import GeoQR
import Ledger

/// Every course's results at one moment, with the runners' names: what the control room, the
/// board, `geoqr results --what splits` and the IOF result list are made from.
public struct CourseBoard: Sendable, Equatable, Codable {
    public struct Runner: Sendable, Equatable, Codable {
        public var name: String
        public var team: String?
    }

    public var courses: [CourseResults]
    /// The runners' names and teams, by player id.
    public var runners: [String: Runner]
    /// Mass starts given, by course id.
    public var massStarts: [String: Date]
    /// The hunt has ended (stopped by the game master, or past its end): runners without a
    /// finish did not finish.
    public var closed: Bool
    public var time: Date
}

/// A runner who started a course and has not finished, and when and where they were last seen.
public struct StillOut: Sendable, Equatable, Codable {
    public var player: String
    public var name: String
    public var team: String?
    public var course: String
    public var started: Date
    /// The later of their last punch and, where the caller knows it, their phone's last position.
    public var lastSeen: Date
    /// Where they were last seen (a punch's or a phone's position), when known.
    public var latitude: Double?
    public var longitude: Double?
    /// Seconds since `lastSeen`.
    public var silentFor: TimeInterval
    /// Not seen for longer than the hunt's ``GeoQR/Hunt/stillOutWarningMinutes``.
    public var overdue: Bool
}

extension Game {
    /// Every course's results now: who runs which course, their splits, statuses and ranks.
    ///
    /// ```swift
    /// let board = try await game.courseResults()
    /// board.courses[0].lines.first?.run.status   // .ok
    /// ```
    public func courseResults() async throws -> CourseBoard {
        let now = clock()
        let finds = try await store.liveFinds(hunt: huntID, player: nil)
        let starts = try await store.courseStarts(hunt: huntID)
        let disqualified = try await store.disqualified(hunt: huntID)
        let closed = try await courseClosed(at: now)
        var punches: [String: [Punch]] = [:]
        for find in finds { punches[find.player, default: []].append(Punch(cache: find.cache, time: find.time)) }
        let massStart = hunt.massStartCourse.flatMap { starts[$0.id] }
        let courses = CourseResults.judge(hunt: hunt, punches: punches, massStart: massStart, closed: closed,
                                          disqualified: Set(disqualified.keys))
        let runnerIDs = Set(courses.flatMap { $0.lines.map(\.run.player) })
        var runners: [String: CourseBoard.Runner] = [:]
        for player in try await store.players(hunt: huntID) where runnerIDs.contains(player.id) {
            runners[player.id] = CourseBoard.Runner(name: player.name, team: player.team)
        }
        return CourseBoard(courses: courses, runners: runners, massStarts: starts, closed: closed, time: now)
    }

    /// One player's run, if they are on a course: what their phone shows (the course, the
    /// next control, the running time).
    public func courseRun(of player: Player) async throws -> CourseRun? {
        guard !hunt.courses.isEmpty else { return nil }
        let finds = try await store.liveFinds(hunt: huntID, player: player.id)
        let punches = finds.map { Punch(cache: $0.cache, time: $0.time) }
        let starts = try await store.courseStarts(hunt: huntID)
        let massStart = hunt.massStartCourse.flatMap { starts[$0.id] }
        let disqualified = try await store.disqualified(hunt: huntID)[player.id] != nil
        return CourseResults.judge(hunt: hunt, punches: [player.id: punches], massStart: massStart,
                                   closed: try await courseClosed(at: clock()),
                                   disqualified: disqualified ? [player.id] : [])
            .lazy.compactMap { $0.lines.first?.run }.first
    }

    /// Runners who started a course and have not finished, the longest silent first.
    ///
    /// - Parameter positions: the last position each phone reported, where the caller keeps
    ///   them (the hunt server does, in memory); a desk command passes none and the last
    ///   punch stands for the last sighting.
    public func stillOut(positions: [String: (Coordinate, Date)] = [:]) async throws -> [StillOut] {
        let board = try await courseResults()
        let finds = try await store.liveFinds(hunt: huntID, player: nil)
        var lastFind: [String: Find] = [:]
        for find in finds where find.time >= (lastFind[find.player]?.time ?? .distantPast) { lastFind[find.player] = find }
        let warning = TimeInterval(hunt.stillOutWarningMinutes * 60)
        var out: [StillOut] = []
        for course in board.courses {
            for line in course.lines where line.run.finish == nil && line.run.status != .disqualified {
                let run = line.run
                var seen = run.lastPunch
                var position = lastFind[run.player].flatMap { $0.time >= run.start ? $0.location : nil }
                if let (place, when) = positions[run.player], when > seen {
                    seen = when
                    position = place
                }
                let silent = board.time.timeIntervalSince(seen)
                let runner = board.runners[run.player]
                out.append(StillOut(player: run.player, name: runner?.name ?? run.player, team: runner?.team,
                                    course: course.course, started: run.start, lastSeen: seen,
                                    latitude: position?.latitude, longitude: position?.longitude,
                                    silentFor: silent, overdue: silent > warning))
            }
        }
        return out.sorted { $0.lastSeen == $1.lastSeen ? $0.player < $1.player : $0.lastSeen < $1.lastSeen }
    }

    /// Gives a course's mass start now: every runner of it starts the clock at this moment.
    public func startCourse(_ id: String) async throws -> Outcome<Date> {
        let started = try await store.startCourse(id, in: hunt, by: GameMaster.actor, at: clock())
        return Outcome(started, effects: [.coursesChanged])
    }

    /// Disqualifies a runner (name or id) from their course, with a reason.
    public func disqualify(_ name: String, from course: String, reason: String) async throws -> Outcome<String> {
        let player = try await player(named: name)
        let reason = try await store.disqualify(player.id, from: course, reason: reason, in: hunt,
                                                by: GameMaster.actor, at: clock())
        return Outcome(reason, effects: [.coursesChanged])
    }

    /// A course ends with the hunt: when the game master stops it, or at its end time.
    func courseClosed(at now: Date) async throws -> Bool {
        if let end = hunt.end, now >= end { return true }
        return try await !running()
    }
}
