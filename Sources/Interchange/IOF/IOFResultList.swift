import Foundation
import GeoQR

extension IOFWriter {
    /// The hunt's course results as an IOF XML 3.0 `ResultList`: a `ClassResult` per course
    /// (its class named after the course), a `PersonResult` per run in GeoQR's order (placed
    /// runs first), and, when the hunt has teams, a `TeamResult` per team on the course after
    /// them, each member with their own result.
    ///
    /// - A player's name is split as results services show names ("Given Family"): the last
    ///   word is the family name, the words before it the given name (`Ana Maria Silva` →
    ///   Given `Ana Maria`, Family `Silva`); a one-word name is a family name with an empty
    ///   given name (both elements are required), so it sorts and shows as itself. The player's
    ///   id (`P3`) is the person's `Id`; their team is their `Organisation`.
    /// - Statuses: ok → OK, mispunch → MissingPunch, did not finish → DidNotFinish, over time →
    ///   OverTime, disqualified → Disqualified, running → Active. A score course's runner over
    ///   time is placed, their penalty already taken from their score, so they are OK with a
    ///   `Position`, as score-O results show them.
    /// - A score course's result carries `<Score type="Score">` (points less penalty) and
    ///   `<Score type="Penalty">`.
    /// - Times are seconds to the millisecond GeoQR keeps; a class with fractions says
    ///   `timeResolution="0.001"`.
    ///
    /// - parameter runners: each player's name and team, by player id; a player missing here is
    ///   named by their id.
    /// - parameter complete: `Complete` once the hunt has ended, else `Snapshot`.
    public static func resultList(_ hunt: Hunt, results: [CourseResults], runners: [String: IOFRunner],
                                  created: Date, complete: Bool) -> String {
        var x = XMLText()
        x.text = declaration
        var root = rootAttributes(created: created, creator: "GeoQR")
        root["status"] = complete ? "Complete" : "Snapshot"
        x.open("ResultList", root)
        x.open("Event")
        x.leaf("Name", IOFText.clean(hunt.name))
        if let start = hunt.start { dateAndTime(&x, "StartTime", start) }
        if let end = hunt.end { dateAndTime(&x, "EndTime", end) }
        x.close("Event")
        let teams = teamOrder(hunt, runners)
        for course in results {
            classResult(&x, course, hunt, runners, teams: teams)
        }
        x.close("ResultList")
        return x.text
    }

    private static func classResult(_ x: inout XMLText, _ results: CourseResults, _ hunt: Hunt,
                                    _ runners: [String: IOFRunner], teams: [String]?) {
        let fractional = results.lines.contains { line in
            ([line.run.elapsed] + line.run.splits.map(\.time)).contains { $0.map(IOFText.isFractional) ?? false }
        }
        x.open("ClassResult", fractional ? ["timeResolution": "0.001"] : [:])
        x.open("Class")
        x.leaf("Id", results.course)
        x.leaf("Name", IOFText.clean(results.name))
        x.close("Class")
        x.open("Course")
        x.leaf("Id", results.course)
        x.leaf("Name", IOFText.clean(results.name))
        let course = hunt.course(id: results.course)
        if let course, course.kind == .line, let length = length(legLengths(course, hunt)) { x.leaf("Length", String(length)) }
        if let course { x.leaf("NumberOfControls", String(course.controls.count)) }
        x.close("Course")
        let leader = results.kind == .line ? results.lines.first { $0.rank == 1 }?.run.elapsed : nil
        for line in results.lines {
            let runner = runners[line.run.player]
            x.open("PersonResult")
            person(&x, line.run.player, runner)
            if let team = runner?.team.map(IOFText.clean), !team.isEmpty {
                x.open("Organisation")
                x.leaf("Name", team)
                x.close("Organisation")
            }
            result(&x, line, results.kind, leader: leader, ofTeamMember: false)
            x.close("PersonResult")
        }
        for team in teams ?? [] {
            let members = results.lines.filter { runners[$0.run.player]?.team == team }
            if members.isEmpty { continue }
            x.open("TeamResult")
            x.leaf("Name", IOFText.clean(team))
            for line in members {
                x.open("TeamMemberResult")
                person(&x, line.run.player, runners[line.run.player])
                result(&x, line, results.kind, leader: leader, ofTeamMember: true)
                x.close("TeamMemberResult")
            }
            x.close("TeamResult")
        }
        x.close("ClassResult")
    }

    private static func person(_ x: inout XMLText, _ player: String, _ runner: IOFRunner?) {
        let (family, given) = personName(runner?.name ?? player)
        x.open("Person")
        x.leaf("Id", player)
        x.open("Name")
        x.leaf("Family", family)
        x.leaf("Given", given)
        x.close("Name")
        x.close("Person")
    }

    /// A `PersonRaceResult` or, for a team member, a `TeamMemberRaceResult`: the same elements
    /// in the same order, but a member's `TimeBehind` and `Position` say what they compare to.
    private static func result(_ x: inout XMLText, _ line: CourseResults.Line, _ kind: Course.Kind,
                               leader: TimeInterval?, ofTeamMember: Bool) {
        let run = line.run
        let versus: [String: String] = ofTeamMember ? ["type": "Course"] : [:]
        x.open("Result")
        x.leaf("StartTime", IOFText.time(run.start))
        if let finish = run.finish { x.leaf("FinishTime", IOFText.time(finish)) }
        if let elapsed = run.elapsed { x.leaf("Time", IOFText.seconds(elapsed)) }
        if let leader, line.rank != nil, let elapsed = run.elapsed {
            x.leaf("TimeBehind", IOFText.seconds(elapsed - leader), versus)
        }
        if let rank = line.rank { x.leaf("Position", String(rank), versus) }
        x.leaf("Status", status(run.status, kind))
        if kind == .score {
            x.leaf("Score", String(run.score), ["type": "Score"])
            x.leaf("Score", String(run.penalty), ["type": "Penalty"])
        }
        for split in run.splits {
            x.open("SplitTime", split.time == nil ? ["status": "Missing"] : [:])
            x.leaf("ControlCode", split.control)
            if let time = split.time { x.leaf("Time", IOFText.seconds(time)) }
            x.close("SplitTime")
        }
        x.close("Result")
    }

    static func status(_ status: CourseStatus, _ kind: Course.Kind) -> String {
        switch status {
        case .ok: "OK"
        case .mispunch: "MissingPunch"
        case .didNotFinish: "DidNotFinish"
        case .overTime: kind == .score ? "OK" : "OverTime"
        case .disqualified: "Disqualified"
        case .running: "Active"
        }
    }

    /// (Family, Given): the last word, and the words before it; a one-word name is all family.
    static func personName(_ name: String) -> (family: String, given: String) {
        let clean = IOFText.clean(name).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let space = clean.lastIndex(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) else { return (clean, "") }
        return (String(clean[clean.index(after: space)...]), String(clean[..<space]))
    }

    /// The teams to write results for, the hunt's own first; nil for a hunt without teams.
    static func teamOrder(_ hunt: Hunt, _ runners: [String: IOFRunner]) -> [String]? {
        let named = Set(runners.values.compactMap(\.team).filter { !$0.isEmpty })
        guard !hunt.teams.isEmpty || !named.isEmpty else { return nil }
        return hunt.teams + named.subtracting(hunt.teams).sorted()
    }

    /// IOF's `DateAndOptionalTime`: the UTC date, and the time with its zone.
    private static func dateAndTime(_ x: inout XMLText, _ element: String, _ date: Date) {
        let iso = IOFText.time(date)          // 2026-11-21T10:15:00Z
        guard let t = iso.firstIndex(of: "T") else { return }
        x.open(element)
        x.leaf("Date", String(iso[..<t]))
        x.leaf("Time", String(iso[iso.index(after: t)...]))
        x.close(element)
    }
}
