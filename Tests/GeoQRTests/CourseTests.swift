import Foundation
import Testing
@testable import GeoQR

/// Courses judged from punches, each result worked out by hand in the comments.
@Suite struct CourseTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    static func at(_ minutes: Double) -> Date { t0.addingTimeInterval(minutes * 60) }

    static let hunt: Hunt = {
        func site(_ id: String, _ points: Int) -> Cache {
            Cache(id: id, name: id, coordinate: Coordinate(latitude: 40.63, longitude: -8.65), points: points)
        }
        return Hunt(id: "O", name: "Orienteering", caches: [
            site("S1", 0), site("S2", 0), site("A1", 10), site("A2", 20), site("A3", 30), site("F1", 0),
        ], courses: [
            Course(id: "LINE", name: "Line", kind: .line, start: "S1", controls: ["A1", "A2", "A3"], finish: "F1"),
            Course(id: "SCORE", name: "Score", kind: .score, start: "S2", controls: ["A1", "A2", "A3"], finish: "F1",
                   timeLimit: 30 * 60, penaltyPerMinute: 2),
        ])
    }()
    static var line: Course { hunt.courses[0] }
    static var score: Course { hunt.courses[1] }

    func punches(_ list: [(String, Double)]) -> [Punch] { list.map { Punch(cache: $0.0, time: Self.at($0.1)) } }

    @Test func aLineCourseInOrderIsOKWithSplitsAndLegs() {
        let run = CourseRun.judge(course: Self.line, hunt: Self.hunt, player: "P1", start: Self.at(0),
                                  punches: punches([("A1", 5), ("A2", 12), ("A3", 20), ("F1", 22)]), closed: false)
        #expect(run.status == .ok)
        #expect(run.elapsed == 1320)      // 22 minutes
        #expect(run.splits.map(\.time) == [300, 720, 1200])
        #expect(run.splits.map(\.leg) == [300, 420, 480])
        #expect(run.nextControl == nil)
    }

    @Test func aControlPunchedOutOfOrderIsMissingAndTheRestStillCount() {
        // A2 at 4 min comes before A1 at 6: A2 cannot follow A1, so it is missing; A3 at 9
        // follows A1, so it counts, with a leg from A1.
        let run = CourseRun.judge(course: Self.line, hunt: Self.hunt, player: "P1", start: Self.at(0),
                                  punches: punches([("A2", 4), ("A1", 6), ("A3", 9), ("F1", 11)]), closed: true)
        #expect(run.status == .mispunch)
        #expect(run.splits.map(\.time) == [360, nil, 540])
        #expect(run.splits.map(\.leg) == [360, nil, 180])
    }

    @Test func noFinishIsRunningWhileOpenAndDidNotFinishOnceClosed() {
        let finds = punches([("A1", 5)])
        let open = CourseRun.judge(course: Self.line, hunt: Self.hunt, player: "P1", start: Self.at(0), punches: finds, closed: false)
        #expect(open.status == .running)
        #expect(open.nextControl == "A2")
        #expect(open.lastPunch == Self.at(5))
        let closed = CourseRun.judge(course: Self.line, hunt: Self.hunt, player: "P1", start: Self.at(0), punches: finds, closed: true)
        #expect(closed.status == .didNotFinish)
    }

    @Test func aScoreCourseOverTimeLosesPointsPerStartedMinute() {
        // 10 + 30 = 40 points; finished at 32 min 30 s, 2 min 30 s over 30: 3 started minutes × 2 = 6.
        let run = CourseRun.judge(course: Self.score, hunt: Self.hunt, player: "P2", start: Self.at(1),
                                  punches: punches([("A3", 10), ("A1", 25), ("F1", 33.5), ("A2", 40)]), closed: true)
        #expect(run.status == .overTime)
        #expect(run.points == 40)
        #expect(run.penalty == 6)
        #expect(run.score == 34)
        #expect(run.splits.map(\.control) == ["A3", "A1", "A2"])       // punched order, then the one not punched
        #expect(run.splits.map(\.time) == [540, 1440, nil])            // A2 came after the finish
    }

    @Test func punchesBeforeTheStartDoNotCount() {
        let run = CourseRun.judge(course: Self.score, hunt: Self.hunt, player: "P2", start: Self.at(10),
                                  punches: punches([("A3", 5), ("A1", 15), ("F1", 20)]), closed: true)
        #expect(run.status == .ok)
        #expect(run.score == 10)
    }

    @Test func runnersRunTheCourseWhoseStartTheyPunchedAndArePlacedBestFirst() {
        let results = CourseResults.judge(hunt: Self.hunt, punches: [
            "P1": punches([("S1", 0), ("A1", 5), ("A2", 10), ("A3", 15), ("F1", 16)]),            // line OK 16:00
            "P2": punches([("S1", 1), ("A1", 4), ("A2", 8), ("A3", 12), ("F1", 13)]),             // line OK 12:00
            "P3": punches([("S1", 0), ("A1", 3), ("A3", 5), ("F1", 6)]),                          // line mispunch
            "P4": punches([("S2", 0), ("A1", 5), ("A2", 9), ("F1", 29)]),                         // score 30, ok
            "P5": punches([("S2", 0), ("A3", 5), ("F1", 20)]),                                    // score 30, ok, faster
            "P6": punches([("S2", 0), ("A3", 5)]),                                                // did not finish
            "P7": punches([("A1", 5)]),                                                           // no start: on no course
        ], massStart: nil, closed: true)
        #expect(results.map(\.course) == ["LINE", "SCORE"])
        #expect(results[0].lines.map(\.run.player) == ["P2", "P1", "P3"])
        #expect(results[0].lines.map(\.rank) == [1, 2, nil])
        #expect(results[1].lines.map(\.run.player) == ["P5", "P4", "P6"])
        #expect(results[1].lines.map(\.rank) == [1, 2, nil])
        #expect(results[1].lines.map(\.run.status) == [.ok, .ok, .didNotFinish])
    }

    @Test func aMassStartCourseTakesItsRunnersFromTheMassStart() {
        var hunt = Self.hunt
        hunt.courses = [Course(id: "MASS", name: "Mass", kind: .score, start: nil, controls: ["A1", "A2"], finish: "F1",
                               timeLimit: 600)]
        let results = CourseResults.judge(hunt: hunt, punches: [
            "P1": punches([("A1", 12), ("F1", 14)]),
            "P2": punches([("A3", 12)]),                // A3 is not on the course
        ], massStart: Self.at(10), closed: false)
        #expect(results[0].lines.map(\.run.player) == ["P1"])
        #expect(results[0].lines[0].run.elapsed == 240)
        #expect(CourseResults.judge(hunt: hunt, punches: ["P1": punches([("A1", 12)])], massStart: nil, closed: false)[0]
            .lines.isEmpty)
    }
}

@Suite struct CourseParserTests {
    static let caches = """
    [{"id": "S1", "name": "Start", "lat": 40.60, "lon": -8.60}, {"id": "A1", "name": "a", "lat": 40.61, "lon": -8.61},
     {"id": "A2", "name": "b", "lat": 40.62, "lon": -8.62}, {"id": "F1", "name": "Finish", "lat": 40.63, "lon": -8.63}]
    """
    func hunt(_ courses: String) -> String { huntJSON(caches: Self.caches, extra: #""courses": \#(courses),"#) }

    @Test func readsALineAndAScoreCourse() throws {
        let parsed = try parse(hunt("""
        [{"id": "yellow", "name": "Yellow", "kind": "line", "start": "s1", "controls": ["a1", "A2"], "finish": "F1"},
         {"id": "SCORE", "name": "Score 45", "kind": "score", "controls": ["A2", "A1"], "finish": "F1",
          "timeLimitMinutes": 45, "penaltyPerMinute": 5, "massStart": "2026-11-28T10:00:00Z"}]
        """))
        let courses = parsed.hunt.courses
        #expect(courses.map(\.id) == ["YELLOW", "SCORE"])
        #expect(courses[0].start == "S1")
        #expect(courses[0].controls == ["A1", "A2"])
        #expect(courses[1].start == nil)
        #expect(courses[1].timeLimit == 2700)
        #expect(courses[1].penaltyPerMinute == 5)
        #expect(parsed.hunt.massStartCourse?.id == "SCORE")
    }

    @Test("each mistake in a course is named with its path", arguments: [
        (#"[{"id": "C", "name": "c", "kind": "relay", "controls": ["A1"], "finish": "F1"}]"#,
         #"courses[0].kind: "relay" is not a kind of course (line or score)"#),
        (#"[{"id": "C", "name": "c", "kind": "line", "controls": ["A1", "ZZ"], "finish": "F1"}]"#,
         #"courses[0].controls[1]: "ZZ" is not the id of a cache in this hunt"#),
        (#"[{"id": "C", "name": "c", "kind": "line", "controls": ["A1", "A1"], "finish": "F1"}]"#,
         #"courses[0].controls[1]: "A1" is already controls[0]; a control is punched once"#),
        (#"[{"id": "C", "name": "c", "kind": "score", "controls": ["A1"], "finish": "F1"}]"#,
         "courses[0].timeLimitMinutes: is missing; a score course needs a time limit"),
        (#"[{"id": "C", "name": "c", "kind": "line", "start": "S1", "controls": ["A1"], "finish": "S1"}]"#,
         #"courses[0].finish: "S1" is also the start; the finish needs a code of its own"#),
        (#"[{"id": "C", "name": "c", "kind": "line", "controls": ["A1"]}]"#, "courses[0].finish: is missing"),
        (#"[{"id": "C", "name": "c", "kind": "line", "controls": [], "finish": "F1"}]"#,
         "courses[0].controls: is empty; a course needs at least one control"),
        (#"[{"id": "C", "name": "c", "kind": "line", "controls": ["A1"], "finish": "F1"}, {"id": "D", "name": "d", "kind": "line", "controls": ["A2"], "finish": "F1"}]"#,
         "courses[1].start: is missing, and course C already has the hunt's mass start; give this course a start code"),
        (#"[{"id": "C", "name": "c", "kind": "line", "start": "S1", "controls": ["A1"], "finish": "F1"}, {"id": "D", "name": "d", "kind": "line", "start": "A1", "controls": ["A2"], "finish": "F1"}]"#,
         #"courses[0].controls[0]: "A1" is the start of course D; a start code only starts"#),
        (#"[{"id": "C", "name": "c", "kind": "line", "start": "S1", "massStart": "2026-11-28T10:00:00Z", "controls": ["A1"], "finish": "F1"}]"#,
         "courses[0].massStart: is set, but the course starts with a code (start); drop one of them"),
    ])
    func namesTheMistake(courses: String, problem: String) {
        #expect(firstProblem(hunt(courses)) == "caches/test.json: \(problem)")
    }
}

@Suite struct ChallengeParserTests {
    func hunt(_ challenge: String) -> String {
        huntJSON(caches: #"[{"id": "A1", "name": "a", "lat": 1, "lon": 1, "challenge": \#(challenge)}]"#)
    }

    @Test func readsAQuestionAndAPhotoTask() throws {
        let question = try parse(hunt(#"{"question": "Colour?", "answers": ["red"], "choices": ["red", "blue"], "points": 5, "penalty": 1, "tries": 2}"#))
        #expect(question.hunt.caches[0].challenge == Challenge(kind: .question(prompt: "Colour?", answers: ["red"], choices: ["red", "blue"]),
                                                               points: 5, penalty: 1, tries: 2))
        let photo = try parse(hunt(#"{"photo": "Your team at the statue", "points": 15}"#))
        #expect(photo.hunt.caches[0].challenge == Challenge(kind: .photo(task: "Your team at the statue"), points: 15))
    }

    @Test("each mistake in a challenge is named with its path", arguments: [
        (#"{"points": 5}"#, #"caches[0].challenge: has neither a question nor a photo task ("question" or "photo")"#),
        (#"{"question": "Colour?"}"#, "caches[0].challenge.answers: is missing; a question needs its accepted answers"),
        (#"{"question": "Colour?", "answers": ["green"], "choices": ["red", "blue"]}"#,
         #"caches[0].challenge.answers[0]: "green" is not one of the choices"#),
        (#"{"question": "Colour?", "answers": ["!!"]}"#,
         #"caches[0].challenge.answers[0]: "!!" has no letters or digits, so no answer can match it"#),
        (#"{"photo": "statue", "tries": 2}"#, "caches[0].challenge.tries: is for questions; a photo task is approved by the game master"),
    ])
    func namesTheMistake(challenge: String, problem: String) {
        #expect(firstProblem(hunt(challenge)) == "caches/test.json: \(problem)")
    }
}
