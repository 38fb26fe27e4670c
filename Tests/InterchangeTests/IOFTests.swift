import Foundation
import GeoQR
import Testing
@testable import Interchange

/// The IOF's own schema for IOF XML 3.0, kept with the fixtures (its origin in
/// Fixtures/iof/README.md). xmllint comes with the test packages (libxml2-utils), as for GPX.
let iofSchema = fixture("iof/IOF.xsd")
let xmllint = "/usr/bin/xmllint"

/// `xmllint --schema IOF.xsd` over a document; records an issue, with xmllint's words, when it is not valid.
func expectValidIOF(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let dir = scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    write(text, to: "\(dir)/\(name)")
    let verdict = try run(xmllint, ["--noout", "--schema", iofSchema, "\(dir)/\(name)"])
    #expect(verdict.status == 0, "\(name) is not valid IOF XML 3.0:\n\(verdict.stderr)", sourceLocation: sourceLocation)
    #expect(verdict.stderr.contains("validates"), "\(verdict.stderr)", sourceLocation: sourceLocation)
}

/// A park with a line course (S1 → A1 → A2 → A3 → F1, an hour at most) and a score course from
/// S2 over B1–B3 and A2 (30 minutes, 2 points a minute over).
func parkHunt(teams: [String] = []) -> Hunt {
    func at(_ lat: Double, _ lon: Double) -> Coordinate { Coordinate(latitude: lat, longitude: lon) }
    return Hunt(id: "PARK", name: "Park & <Lagoon>", start: iofT0.addingTimeInterval(-600), end: iofT0.addingTimeInterval(7200),
                caches: [
                    Cache(id: "S1", name: "Gate", coordinate: at(40.630301, -8.657512)),
                    Cache(id: "A1", name: "Bench \"old\"", coordinate: at(40.63152, -8.65603)),
                    Cache(id: "A2", name: "Bridge", coordinate: at(40.632894, -8.657861), points: 25),
                    Cache(id: "A3", name: "Kiosk", coordinate: at(40.63341, -8.655122)),
                    Cache(id: "S2", name: "Score start", coordinate: at(40.6304, -8.6576)),
                    Cache(id: "B1", name: "Pond", coordinate: at(40.62921, -8.65443), points: 10),
                    Cache(id: "B2", name: "Tower", coordinate: at(40.628004, -8.65679), points: 20),
                    Cache(id: "B3", name: "Boathouse", coordinate: at(40.63015, -8.66012), points: 30),
                    Cache(id: "F1", name: "Café", coordinate: at(40.630605, -8.65702)),
                    Cache(id: "X9", name: "Not on a course", coordinate: at(40.64, -8.65)),
                ],
                teams: teams,
                courses: [
                    Course(id: "YELLOW", name: "Yellow", kind: .line, start: "S1", controls: ["A1", "A2", "A3"],
                           finish: "F1", timeLimit: 3600),
                    Course(id: "SCORE", name: "Score 30", kind: .score, start: "S2", controls: ["B1", "B2", "B3", "A2"],
                           finish: "F1", timeLimit: 1800, penaltyPerMinute: 2),
                ])
}

/// 2026-11-21T10:15:00Z.
let iofT0 = Date(timeIntervalSince1970: 1_795_256_100)

/// Every status a run can have: P1, P2 OK (P2 with a fraction of a second), P3 a mispunch, P4
/// still out (or, once closed, did not finish), P5 over time, P6 disqualified; on the score
/// course Q1 OK, Q2 over time (placed, with a penalty), Q3 still out.
func parkResults(closed: Bool) -> [CourseResults] {
    func punches(_ list: [(String, Double)]) -> [Punch] {
        list.map { Punch(cache: $0.0, time: iofT0.addingTimeInterval($0.1 * 60)) }
    }
    return CourseResults.judge(hunt: parkHunt(), punches: [
        "P1": punches([("S1", 0), ("A1", 5), ("A2", 10), ("A3", 15), ("F1", 20)]),
        "P2": punches([("S1", 1), ("A1", 7), ("A2", 13.5), ("A3", 19), ("F1", 26.3125)]),
        "P3": punches([("S1", 2), ("A2", 8), ("A3", 12), ("F1", 16)]),
        "P4": punches([("S1", 3), ("A1", 9)]),
        "P5": punches([("S1", 0), ("A1", 20), ("A2", 40), ("A3", 60), ("F1", 70)]),
        "P6": punches([("S1", 0), ("A1", 4), ("A2", 8), ("A3", 12), ("F1", 15)]),
        "Q1": punches([("S2", 0), ("B3", 5), ("B1", 10), ("F1", 25)]),
        "Q2": punches([("S2", 0), ("B1", 5), ("B2", 10), ("B3", 20), ("A2", 25), ("F1", 33.5)]),
        "Q3": punches([("S2", 1), ("B2", 4)]),
    ], massStart: nil, closed: closed, disqualified: ["P6"])
}

let parkRunners: [String: IOFRunner] = [
    "P1": IOFRunner(name: "Ana Maria Silva", team: "Owls"),
    "P2": IOFRunner(name: "Rui", team: "Foxes"),
    "P3": IOFRunner(name: "Zé  Pedro", team: "Owls"),
    "P5": IOFRunner(name: "Inês Costa"),
    "Q1": IOFRunner(name: "Marta Sousa", team: "Badgers"),
    "Q2": IOFRunner(name: "João Lima", team: "Owls"),
]

/// The names of every `<Person>` in an IOF document, as "Given Family" (or the family name alone).
func personNames(in xml: String) throws -> [String] {
    let stream = try XMLStream(data: Data(xml.utf8), name: "names.xml")
    var path: [String] = [], text = "", family = "", given = "", names: [String] = []
    while let event = try stream.next() {
        switch event {
        case .start(let element): path.append(element.name); text = ""
        case .text(let s): text += s
        case .end:
            let name = path.removeLast()
            if name == "Family" { family = text }
            if name == "Given" { given = text }
            if name == "Name", path.last == "Person" { names.append(given.isEmpty ? family : given + " " + family) }
            text = ""
        }
    }
    return names
}

@Suite
struct IOFSchemaTests {
    @Test func courseDataOfALineAndAScoreCourseIsValid() throws {
        let xml = IOFWriter.courseData(parkHunt(), created: iofT0)
        try expectValidIOF(xml, "courses.xml")
        #expect(xml.contains(#"<CourseData xmlns="http://www.orienteering.org/datastandard/3.0" xmlns:geoqr="https://geoqr.example/iof/1" createTime="2026-11-21T10:15:00Z" creator="GeoQR" iofVersion="3.0">"#))
        #expect(xml.contains("<Name>Park &amp; &lt;Lagoon&gt;</Name>"))
        #expect(xml.contains(#"<Control type="Start">"#))
        #expect(xml.contains(#"<Position lat="40.630301" lng="-8.657512"/>"#))
        #expect(!xml.contains("X9"), "a cache on no course is not a control")
        #expect(xml.contains("<Control>B2</Control>\n        <Score>20</Score>"))
        #expect(xml.contains("<Control>A2</Control>\n        <Score>25</Score>"))
        #expect(xml.contains("<geoqr:Kind>score</geoqr:Kind>"))
        #expect(xml.contains("<geoqr:TimeLimit>1800</geoqr:TimeLimit>"))
        #expect(xml.contains("<geoqr:PenaltyPerMinute>2</geoqr:PenaltyPerMinute>"))
        #expect(xml.contains("<MapText>1</MapText>"))
        #expect(xml.contains("<LegLength>"))
    }

    @Test(arguments: [false, true])
    func resultListIsValid(closed: Bool) throws {
        let xml = IOFWriter.resultList(parkHunt(), results: parkResults(closed: closed), runners: parkRunners,
                                       created: iofT0.addingTimeInterval(3600), complete: closed)
        try expectValidIOF(xml, "results-\(closed).xml")
        #expect(xml.contains(closed ? #"status="Complete""# : #"status="Snapshot""#))
        #expect(xml.contains(#"<ClassResult timeResolution="0.001">"#))
        for status in ["OK", "MissingPunch", "OverTime", "Disqualified", closed ? "DidNotFinish" : "Active"] {
            #expect(xml.contains("<Status>\(status)</Status>"), "\(status)")
        }
        #expect(xml.contains("<Time>1518.75</Time>"))           // P2: 25 min 18.75 s
        #expect(xml.contains("<FinishTime>2026-11-21T10:41:18.750Z</FinishTime>"))
        #expect(xml.contains(#"<SplitTime status="Missing">"#))
        #expect(xml.contains(#"<Score type="Score">77</Score>"#))   // Q2: 85 points, 4 minutes over
        #expect(xml.contains(#"<Score type="Penalty">8</Score>"#))
        #expect(xml.contains("<Family>Silva</Family>"))
        #expect(xml.contains("<Given>Ana Maria</Given>"))
        #expect(xml.contains("<Organisation>\n        <Name>Owls</Name>"))
        #expect(xml.contains("<Position>1</Position>"))
        #expect(xml.contains("<TeamResult>"), "runners have teams")
    }

    @Test func theSchemaRejectsWhatGeoQRMustNotWrite() throws {
        // The check is real: a status outside IOF's list, or Family after Given, fails it.
        let good = IOFWriter.resultList(parkHunt(), results: parkResults(closed: true), runners: parkRunners,
                                        created: iofT0, complete: true)
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for bad in [good.replacingOccurrences(of: "<Status>OK</Status>", with: "<Status>Fine</Status>"),
                    good.replacingOccurrences(of: "<Family>Silva</Family>\n          <Given>Ana Maria</Given>",
                                              with: "<Given>Ana Maria</Given>\n          <Family>Silva</Family>")] {
            #expect(bad != good)
            write(bad, to: "\(dir)/bad.xml")
            #expect(try run(xmllint, ["--noout", "--schema", iofSchema, "\(dir)/bad.xml"]).status != 0)
        }
    }

    @Test func aTeamHuntHasTeamResultsBesideThePersonResults() throws {
        let hunt = parkHunt(teams: ["Owls", "Foxes", "Badgers", "Herons"])
        let xml = IOFWriter.resultList(hunt, results: parkResults(closed: true), runners: parkRunners,
                                       created: iofT0, complete: true)
        try expectValidIOF(xml, "teams.xml")
        #expect(xml.components(separatedBy: "<PersonResult>").count - 1 == 9)
        // Yellow: Owls (P1, P3), Foxes (P2); Score: Owls (Q2), Badgers (Q1). Herons ran nothing.
        #expect(xml.components(separatedBy: "<TeamResult>").count - 1 == 4)
        #expect(xml.components(separatedBy: "<TeamMemberResult>").count - 1 == 5)
        #expect(!xml.contains("Herons"))
        #expect(xml.contains(#"<Position type="Course">1</Position>"#))
        #expect(xml.contains(#"<TimeBehind type="Course">"#))
        let owls = try #require(xml.range(of: "<Name>Owls</Name>\n      <TeamMemberResult>"))
        #expect(xml[owls.upperBound...].contains("<Id>P3</Id>"))
    }

    @Test func aHostilePlayerNameStaysText() throws {
        let hostile = "<script>&\"'\u{7}</script>"
        let spaced = "Eve \u{1}<b>\r\n&amp; O'Neil\u{FFFF}"
        let runners = ["P1": IOFRunner(name: hostile, team: "</Team>&\u{0}"), "P2": IOFRunner(name: spaced)]
        let xml = IOFWriter.resultList(parkHunt(), results: parkResults(closed: true), runners: runners,
                                       created: iofT0, complete: true)
        try expectValidIOF(xml, "hostile.xml")
        #expect(!xml.contains("<script>"))
        let names = try personNames(in: xml)
        #expect(names.contains("<script>&\"'</script>"))
        #expect(names.contains("Eve <b>\n&amp; O'Neil"))
        #expect(xml.contains("<Name>&lt;/Team&gt;&amp;</Name>"))
    }

    @Test func theFixtureIsValidAndItsExportToo() throws {
        let fixtureText = try String(contentsOfFile: fixture("iof/purple-pen-style.xml"), encoding: .utf8)
        try expectValidIOF(fixtureText, "fixture.xml")
        let hunt = try IOFCourseReader.read(Data(fixtureText.utf8), file: "fixture.xml").hunt(id: "RIVER", name: "River")
        try expectValidIOF(IOFWriter.courseData(hunt, created: iofT0), "again.xml")
    }
}

@Suite struct IOFCourseReaderTests {
    func readFixture() throws -> IOFCourses {
        try IOFCourseReader.read(try Data(contentsOf: URL(fileURLWithPath: fixture("iof/purple-pen-style.xml"))),
                                 file: "purple-pen-style.xml")
    }

    @Test func readsPurplePensCourses() throws {
        let file = try readFixture()
        #expect(file.event == "Riverside Park & Lagoon")
        #expect(file.controls.map(\.id) == ["S1", "31", "32", "33", "34", "35", "36", "37", "38", "F1"])
        #expect(file.controls.first?.kind == .start)
        #expect(file.controls.last?.kind == .finish)
        #expect(file.controls[1].coordinate == Coordinate(latitude: 40.63152, longitude: -8.65603))
        #expect(file.courses.map(\.name) == ["Yellow", "Orange", "Score 45"])
        #expect(file.courses.map(\.kind) == [.line, .line, .score])
        #expect(file.courses[0].start == "S1")
        #expect(file.courses[0].controls == ["31", "32", "33"])
        #expect(file.courses[1].controls == ["34", "35", "36", "37"], "the crossing point is not punched")
        #expect(file.courses[2].scores["38"] == 50)
        #expect(file.courses[2].timeLimit == 3600)
        #expect(file.notes.contains(
            "purple-pen-style.xml:135: course \"Score 45\" has no time limit in the file (IOF XML 3.0 has no element for it); GeoQR gives it 60 minutes"),
            "\(file.notes)")
        #expect(file.notes.contains(
            "purple-pen-style.xml:17: start \"S1\" begins 3 courses; GeoQR gives each its own start code: S1 (Yellow), S1-2 (Orange), S1-3 (Score 45)"),
            "\(file.notes)")
    }

    @Test func makesAHuntWithAStartPerCourse() throws {
        let hunt = try readFixture().hunt(id: "river", name: "Riverside")
        #expect(hunt.id == "RIVER")
        #expect(hunt.caches.map(\.id) == ["S1", "S1-2", "S1-3", "31", "32", "33", "34", "35", "36", "37", "38", "F1"])
        #expect(hunt.cache(id: "S1-2")?.coordinate == hunt.cache(id: "S1")?.coordinate)
        #expect(hunt.cache(id: "S1-2")?.name == "Start S1 (Orange)")
        #expect(hunt.cache(id: "31")?.points == 10)
        #expect(hunt.cache(id: "38")?.points == 50)
        #expect(hunt.courses.map(\.id) == ["YELLOW", "ORANGE", "SCORE-45"])
        #expect(hunt.courses.map(\.start) == ["S1", "S1-2", "S1-3"])
        #expect(hunt.courses[0].controls == ["31", "32", "33"])
        #expect(hunt.courses[0].finish == "F1")
        #expect(hunt.courses[0].timeLimit == nil)
        #expect(hunt.courses[2].kind == .score)
        #expect(hunt.courses[2].timeLimit == 3600)
    }

    @Test func exportedCoursesReadBackTheSame() throws {
        let first = try readFixture().hunt(id: "RIVER", name: "Riverside")
        let xml = IOFWriter.courseData(first, created: iofT0)
        let again = try IOFCourseReader.read(Data(xml.utf8), file: "again.xml")
        #expect(again.notes.isEmpty, "\(again.notes)")
        let second = try again.hunt(id: "RIVER", name: "Riverside")
        #expect(second.courses == first.courses)
        #expect(second.caches == first.caches)
        // GeoQR's own hunt too, with its time limits, penalty and mass start.
        var park = parkHunt()
        park.courses.append(Course(id: "MASS", name: "Mass start", kind: .line, start: nil,
                                   massStart: iofT0.addingTimeInterval(0.125), controls: ["B1", "A3"], finish: "F1"))
        let parkAgain = try IOFCourseReader.read(Data(IOFWriter.courseData(park, created: iofT0).utf8), file: "park.xml")
            .hunt(id: "PARK", name: park.name)
        #expect(parkAgain.courses == park.courses)
        // Starts first, as course-setting software lists them; X9 is on no course.
        #expect(parkAgain.caches.sorted { $0.id < $1.id } == park.caches.filter { $0.id != "X9" }.sorted { $0.id < $1.id })
    }

    func readError(_ xml: String) -> String? {
        do { _ = try IOFCourseReader.read(Data(xml.utf8), file: "bad.xml"); return nil } catch { return error.description }
    }

    func huntError(_ xml: String) -> String? {
        do { _ = try IOFCourseReader.read(Data(xml.utf8), file: "bad.xml").hunt(id: "T", name: "t"); return nil } catch {
            return error.description
        }
    }

    func courseData(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <CourseData xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0">
          <Event><Name>Bad</Name></Event>
          <RaceCourseData>
        \(body)
          </RaceCourseData>
        </CourseData>
        """
    }

    let controls = """
        <Control type="Start"><Id>S1</Id><Position lat="1" lng="2"/></Control>
        <Control><Id>31</Id><Position lat="1.001" lng="2"/></Control>
        <Control type="Finish"><Id>F1</Id><Position lat="1.002" lng="2"/></Control>
    """

    func course(_ codes: [String], name: String = "Yellow") -> String {
        let legs = codes.enumerated().map { i, code in
            let type = i == 0 ? "Start" : i == codes.count - 1 ? "Finish" : "Control"
            return "<CourseControl type=\"\(type)\"><Control>\(code)</Control></CourseControl>"
        }
        return "    <Course><Name>\(name)</Name>\(legs.joined())</Course>"
    }

    @Test func aControlWithoutPositionIsNamed() {
        let xml = courseData(#"    <Control type="Control"><Id>31</Id><MapPosition x="10.5" y="-3"/></Control>"#)
        #expect(readError(xml) == "bad.xml:5: control \"31\" has only a <MapPosition> (map millimetres); GeoQR needs its latitude and longitude (<Position lat lng>): georeference the map and export again")
        #expect(readError(courseData("    <Control><Id>32</Id></Control>")) == "bad.xml:5: control \"32\" has no <Position>; GeoQR needs its latitude and longitude (<Position lat lng>): georeference the map and export again")
    }

    @Test func aCourseNamingAnUnknownControl() {
        let xml = courseData(controls + "\n" + course(["S1", "99", "F1"]))
        #expect(readError(xml) == "bad.xml:8: course \"Yellow\": <CourseControl> names control \"99\", which is not a <Control> of the file")
    }

    @Test func aRootOtherThanCourseData() {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <ResultList xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"><Event><Name>x</Name></Event></ResultList>
        """
        #expect(readError(xml) == "bad.xml:2: root element is <ResultList>, not <CourseData>: not an IOF XML 3.0 course file")
        #expect(readError("<CourseData><IOFVersion version=\"2.0.3\"/></CourseData>")
                == "bad.xml:1: <CourseData> has no namespace and no iofVersion=\"3.0\" (IOF XML 2.0.3?), not IOF XML 3.0 (http://www.orienteering.org/datastandard/3.0); export IOF XML 3.0")
    }

    @Test("other bad files, one line each", arguments: [
        ("<!DOCTYPE CourseData [<!ENTITY x \"y\">]><CourseData/>",
         "bad.xml: has a DOCTYPE; DTDs and entities are refused (IOF XML does not use them)"),
        ("", "bad.xml: is empty, not an IOF XML 3.0 course file"),
        (#"<CourseData xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"><Event><Name>x</Name></Event></CourseData>"#,
         "bad.xml: <CourseData> has no <RaceCourseData> (no controls or courses)"),
    ])
    func badFiles(xml: String, expected: String) {
        #expect(readError(xml) == expected)
    }

    @Test func badCoursesAndControls() {
        #expect(readError(courseData(#"    <Control><Id>31</Id><Position lat="95" lng="2"/></Control>"#))
                == #"bad.xml:5: <Position lat="95"> is not a latitude (-90…90)"#)
        #expect(readError(courseData(controls + "\n" + controls)) == "bad.xml:8: control \"S1\" is defined twice (first at line 5)")
        let noFinish = #"<Course><Name>Yellow</Name><CourseControl type="Start"><Control>S1</Control></CourseControl><CourseControl type="Control"><Control>31</Control></CourseControl></Course>"#
        #expect(readError(courseData(controls + "\n    " + noFinish))
                == "bad.xml:8: course \"Yellow\" does not end at a Finish (its last <CourseControl> is \"31\", type Control)")
        let alternatives = courseData(controls + "\n    <Course><Name>Y</Name><CourseControl><Control>31</Control><Control>S1</Control></CourseControl></Course>")
        #expect(readError(alternatives)
                == "bad.xml:8: course \"Y\": <CourseControl> offers 2 controls to choose from (31, S1); a GeoQR course has one control per leg")
        let score = courseData(controls + "\n    <Course><Name>S</Name><CourseControl><Control>31</Control><Score>2.5</Score></CourseControl></Course>")
        #expect(readError(score) == "bad.xml:8: <Score>2.5</Score> is not a whole number of points (0…1000000)")
    }

    @Test func coursesThatBreakGeoQRsRules() {
        #expect(huntError(courseData(controls + "\n" + course(["S1", "31", "31", "F1"])))
                == "bad.xml:8: course \"Yellow\" visits control \"31\" twice; a GeoQR course punches each control once")
        #expect(huntError(courseData(controls + "\n" + course(["S1", "F1"])))
                == "bad.xml:8: course \"Yellow\" has no controls between its start and its finish")
        let massStartOver = #"<CourseControl type="Control"><Control>S1</Control></CourseControl><CourseControl type="Finish"><Control>F1</Control></CourseControl>"#
        let startAsControl = controls + "\n" + course(["S1", "31", "F1"]) + "\n    <Course><Name>Blue</Name>\(massStartOver)</Course>"
        #expect(huntError(courseData(startAsControl))
                == "bad.xml:9: course \"Blue\" punches \"S1\", the start of course \"Yellow\"; a GeoQR start code only starts a course")
        let massStart31 = massStartOver.replacingOccurrences(of: "<Control>S1<", with: "<Control>31<")
        let twoMassStarts = controls + "\n    <Course><Name>A</Name>\(massStart31)</Course>\n    <Course><Name>B</Name>\(massStartOver)</Course>"
        #expect(huntError(courseData(twoMassStarts))
                == "bad.xml:9: course \"B\" has no start, and course \"A\" already has the hunt's mass start; give one of them a Start control")
    }

    @Test func oddCodesBecomeCacheIDs() throws {
        let xml = courseData("""
            <Control type="Start"><Id>sta 1</Id><Name>The gate</Name><Position lat="1" lng="2"/></Control>
            <Control><Id>a/b</Id><Position lat="1.001" lng="2"/></Control>
            <Control><Id>A-B</Id><Position lat="1.002" lng="2"/></Control>
            <Control type="Finish"><Id>fin</Id><Position lat="1.003" lng="2"/></Control>
            <Course><Name>Très long nom de parcours, vraiment très long</Name>
              <CourseControl type="Start"><Control>sta 1</Control></CourseControl>
              <CourseControl><Control>a/b</Control></CourseControl><CourseControl><Control>A-B</Control></CourseControl>
              <CourseControl type="Finish"><Control>fin</Control></CourseControl></Course>
        """)
        let file = try IOFCourseReader.read(Data(xml.utf8), file: "odd.xml")
        let hunt = try file.hunt(id: "T", name: "t")
        #expect(hunt.caches.map(\.id) == ["STA-1", "A-B", "A-B-2", "FIN"])
        #expect(hunt.caches.map(\.name) == ["The gate", "Control a/b", "Control A-B", "Finish fin"])
        #expect(hunt.courses.first?.id == "TR-S-LONG-NOM-DE-PARCOURS-VRAIME")
        #expect(hunt.courses.first?.controls == ["A-B", "A-B-2"])
        #expect(file.notes.contains(#"odd.xml:5: control "sta 1" is cache STA-1 (GeoQR codes carry letters, digits and hyphens, at most 12)"#))
    }
}
