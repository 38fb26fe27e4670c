import Foundation
import GeoQR
import Ledger
import Play
import Testing

/// Courses played through `Game` on a real SQLite ledger, with a clock the test moves: punches
/// are claims (signed codes, radius, late claims judged at the scan's time), results are
/// worked out by hand in the comments.
@Suite("Courses played")
struct CourseGameTests {
    static func site(_ id: String, _ north: Double, points: Int = 0) -> Cache {
        // 1 km apart, so no claim radius overlaps another.
        Cache(id: id, name: "Site \(id)", coordinate: Coordinate(latitude: 40.60 + north * 0.01, longitude: -8.65), points: points)
    }
    static let hunt = Hunt(id: "PARK", name: "Park-O", caches: [
        site("S1", 0), site("A1", 1, points: 10), site("A2", 2, points: 20), site("A3", 3, points: 30), site("F1", 4),
    ], courses: [
        Course(id: "LINE", name: "Line", kind: .line, start: "S1", controls: ["A1", "A2", "A3"], finish: "F1"),
        Course(id: "SCORE", name: "Score", kind: .score, start: nil, controls: ["A1", "A2", "A3"], finish: "F1",
               timeLimit: 20 * 60, penaltyPerMinute: 5),
    ], stillOutWarningMinutes: 15)

    let played: LedgerGame
    var game: Game { played.game }
    var clock: GameTests.Clock { played.clock }
    var secret: HuntSecret { played.secret }
    var folder: URL { played.folder }

    init() throws {
        played = try LedgerGame(hunt: Self.hunt, label: "course-tests")
    }

    func minutes(_ m: Double) -> Date { GameTests.t0.addingTimeInterval(m * 60) }
    /// Moves the clock to `m` minutes after t0 and punches `cache` there.
    func punch(_ cache: String, by player: Player, at m: Double, scannedAt: Double? = nil) async throws {
        clock.advance(minutes(m).timeIntervalSince(clock.read()))
        let here = ClaimLocation(coordinate: Self.hunt.cache(id: cache)!.coordinate, accuracy: 8, source: .browser)
        let sending = scannedAt.map { Sending(claimID: "\(player.id)-\(cache)", scannedAt: minutes($0)) } ?? .now
        let answer = try await game.claimCode(CacheCode.payload(hunt: "PARK", cache: cache, secret: secret), at: here,
                                              method: .link, by: player.id, sending: sending).value.best
        #expect(answer.outcome == .found, "\(player.name) punches \(cache): \(answer)")
    }

    @Test func aScoreCourseAndALineCourseGiveTheResultsWorkedOutByHand() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: "Foxes").value
        let bea = try await game.join(name: "Bea", pin: "4321", team: "Owls").value
        let cai = try await game.join(name: "Cai", pin: "4321", team: nil).value
        let dan = try await game.join(name: "Dan", pin: "4321", team: nil).value
        let eve = try await game.join(name: "Eve", pin: "4321", team: nil).value

        // The score course's mass start at minute 1; a second start changes nothing.
        clock.advance(60)
        #expect(try await game.startCourse("score").value == minutes(1))
        clock.advance(60)
        #expect(try await game.startCourse("SCORE").value == minutes(1))
        await #expect(throws: GameRuleViolation.notAMassStart("LINE")) { try await game.startCourse("LINE") }

        // Eve starts the line course at 3 (her other punches come later, as late claims).
        try await punch("S1", by: eve, at: 3)
        // Ada: A1 at 5, A3 at 9, finish at 15: 40 points in 14:00.
        try await punch("A1", by: ada, at: 5)
        try await punch("A3", by: ada, at: 9)
        try await punch("F1", by: ada, at: 15)
        // Bea: all three, finish at 23 (22:00, 2 minutes over 20): 60 - 2 × 5 = 50, over time.
        try await punch("A2", by: bea, at: 6)
        try await punch("A1", by: bea, at: 10)
        try await punch("A3", by: bea, at: 18)
        try await punch("F1", by: bea, at: 23)
        // Cai: A2, and never the finish. The A2 punch is a late claim sent at 12, scanned at 7.
        try await punch("A2", by: cai, at: 12, scannedAt: 7)
        // Dan runs the line course from his start punch at 2: A1 at 4, A3 at 6 (A2 missed), finish at 8.
        try await punch("S1", by: dan, at: 24, scannedAt: 2)
        try await punch("A1", by: dan, at: 24, scannedAt: 4)
        try await punch("A3", by: dan, at: 24, scannedAt: 6)
        try await punch("F1", by: dan, at: 24, scannedAt: 8)
        // Eve: line course, start at 3, in order, finish at 20: 17:00.
        try await punch("A1", by: eve, at: 25, scannedAt: 8)
        try await punch("A2", by: eve, at: 25, scannedAt: 12)
        try await punch("A3", by: eve, at: 25, scannedAt: 16)
        try await punch("F1", by: eve, at: 25, scannedAt: 20)

        var board = try await game.courseResults()
        let line = try #require(board.courses.first { $0.course == "LINE" })
        let score = try #require(board.courses.first { $0.course == "SCORE" })
        #expect(line.lines.map(\.run.player) == [eve.id, dan.id])
        #expect(line.lines.map(\.rank) == [1, nil])
        #expect(line.lines.map(\.run.status) == [.ok, .mispunch])
        #expect(line.lines[0].run.elapsed == 1020)      // 17:00
        #expect(line.lines[0].run.splits.map(\.time) == [300, 540, 780])
        #expect(line.lines[1].run.splits.map(\.time) == [120, nil, 240])
        #expect(score.lines.map(\.run.player) == [bea.id, ada.id, cai.id])
        #expect(score.lines.map(\.rank) == [1, 2, nil])
        #expect(score.lines.map(\.run.status) == [.overTime, .ok, .running])
        #expect(score.lines.map(\.run.score) == [50, 40, 20])
        #expect(score.lines[0].run.penalty == 10)
        #expect(score.lines[2].run.splits.first?.time == 360, "Cai's late punch counts at its scan, 6 minutes after the start")
        #expect(board.runners[ada.id]?.team == "Foxes")

        // Cai is still out: last seen at his A2 punch (minute 7), 18 minutes before now (25): overdue.
        let out = try await game.stillOut()
        #expect(out.map(\.player) == [cai.id])
        #expect(out.first?.lastSeen == minutes(7) && out.first?.overdue == true)
        #expect(out.first?.latitude == Self.hunt.cache(id: "A2")!.coordinate.latitude)
        // A phone's position newer than the punch is the last sighting.
        let spot = Coordinate(latitude: 40.635, longitude: -8.651)
        let seen = try await game.stillOut(positions: [cai.id: (spot, minutes(20))])
        #expect(seen.first?.lastSeen == minutes(20) && seen.first?.overdue == false && seen.first?.latitude == spot.latitude)

        // The hunt ends: Cai did not finish. Dan is disqualified: unplaced, with the reason kept once.
        _ = try await game.setRunning(false)
        #expect(try await game.disqualify("Dan", from: "LINE", reason: "cut through the garden").value == "cut through the garden")
        #expect(try await game.disqualify("dan", from: "LINE", reason: "again").value == "cut through the garden")
        board = try await game.courseResults()
        #expect(board.closed)
        #expect(board.courses[1].lines.last?.run.status == .didNotFinish)
        #expect(board.courses[0].lines.map(\.run.status) == [.ok, .disqualified])

        // The CSV of splits: a row per control and one for the finish.
        let csv = board.splitsCSV().split(separator: "\r\n").map(String.init)
        #expect(csv.first == "course,rank,player,name,team,status,control,order,split,leg")
        #expect(csv.contains("LINE,1,\(eve.id),Eve,,ok,A2,2,540,240"))
        #expect(csv.contains("LINE,1,\(eve.id),Eve,,ok,finish,,1020,240"))
        #expect(csv.contains("SCORE,1,\(bea.id),Bea,Owls,overTime,A2,1,300,300"))
        let table = board.splitTables()
        #expect(table.contains("\n  1  Eve   ok            17:00  5:00  9:00  13:00\n"
                              + "                                5:00  4:00  4:00\n"), "\(table)")
        #expect(table.contains("\n     Dan   disqualified  6:00   2:00  -     4:00\n"), "\(table)")
        #expect(try await game.store.verify().isIntact, "course starts and disqualifications rebuild from the events")
    }

    @Test func theRunnersPhoneShowsTheCourseTheNextControlAndTheStart() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        #expect(try await game.courseRun(of: ada) == nil, "on no course before a start")
        try await punch("S1", by: ada, at: 1)
        try await punch("A1", by: ada, at: 4)
        let run = try #require(try await game.courseRun(of: ada))
        #expect(run.course == "LINE" && run.status == .running && run.start == minutes(1))
        #expect(run.nextControl == "A2")
    }
}
