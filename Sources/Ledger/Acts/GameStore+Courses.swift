import Foundation
import GeoQR

extension GameStore {
    /// Gives a course's mass start now (`time`), once: a second start answers the first one's
    /// time and writes nothing.
    ///
    /// ```swift
    /// let started = try await store.startCourse("SCORE", in: hunt, by: "gm", at: .now)
    /// ```
    /// - throws: ``GeoQR/GameRuleViolation/unknownCourse(_:)``, `notAMassStart` for a course
    ///   that starts with its start code.
    public func startCourse(_ id: String, in hunt: Hunt, by actor: String, at time: Date) async throws -> Date {
        guard let course = hunt.course(id: id) else { throw GameRuleViolation.unknownCourse(id) }
        guard course.start == nil else { throw GameRuleViolation.notAMassStart(course.id) }
        let huntID = hunt.id
        return try await perform(LedgerAct { facts in
            if let started = try facts.courseStart(hunt: huntID, course: course.id) { return .answer(started) }
            let started = NewEvent(.courseStarted, hunt: huntID, actor: actor, at: time) { _ in CourseStarted(course: course.id) }
            return Decision(events: [started]) { facts, _ in try facts.courseStart(hunt: huntID, course: course.id) ?? time }
        })
    }

    /// When each course the game master started was started, by course id.
    public func courseStarts(hunt: String) async throws -> [String: Date] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            var starts: [String: Date] = [:]
            for row in try facts.rows("SELECT course, started_ms FROM course_starts WHERE hunt = ?", hunt) {
                starts[row["course"]] = Date(millisecondsSince1970: row["started_ms"])
            }
            return starts
        })
    }

    /// Disqualifies `player` from `course`, with the game master's reason, once: a second
    /// time answers the first reason and writes nothing.
    public func disqualify(_ player: String, from course: String, reason: String, in hunt: Hunt, by actor: String,
                           at time: Date) async throws -> String {
        guard let course = hunt.course(id: course) else { throw GameRuleViolation.unknownCourse(course) }
        let reason = try Reports.checkReason(reason)
        let huntID = hunt.id
        return try await perform(LedgerAct { facts in
            let playerID = try facts.requirePlayer(hunt: huntID, player)
            if let given = try facts.row("SELECT reason FROM disqualifications WHERE hunt = ? AND player_id = ?",
                                          huntID, playerID) {
                return .answer(given["reason"] as String)
            }
            let disqualified = NewEvent(.runnerDisqualified, hunt: huntID, actor: actor, at: time) { _ in
                RunnerDisqualified(player: playerID, course: course.id, reason: reason)
            }
            return Decision(events: [disqualified]) { _, _ in reason }
        })
    }

    /// The players disqualified in a hunt, with the reasons, by player id.
    public func disqualified(hunt: String) async throws -> [String: String] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            var reasons: [String: String] = [:]
            for row in try facts.rows("SELECT player_id, reason FROM disqualifications WHERE hunt = ?", hunt) {
                reasons[row["player_id"]] = row["reason"] as String
            }
            return reasons
        })
    }
}

extension FactReader {
    func courseStart(hunt: String, course: String) throws -> Date? {
        try row("SELECT started_ms FROM course_starts WHERE hunt = ? AND course = ?", hunt, course)
            .map { Date(millisecondsSince1970: $0["started_ms"]) }
    }
}
