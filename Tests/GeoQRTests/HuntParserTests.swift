import Foundation
import Testing
@testable import GeoQR

/// A small valid hunt as JSON text, edited by each test to break one thing.
func huntJSON(caches: String? = nil, trails: String = "[]", extra: String = "") -> String {
    let defaultCaches = """
    [
      {"id": "a1", "name": "Gate", "lat": 40.63030, "lon": -8.65750, "message": "Hello"},
      {"id": "A2", "name": "Pond", "lat": "N 40° 37.674'", "lon": "W 008° 39.594'", "radius": 30},
      {"id": "A3", "name": "Bridge", "lat": 40.62510, "lon": -8.66210, "difficulty": 2.5, "terrain": 4},
      {"id": "A4", "name": "Library", "lat": 40.64000, "lon": -8.65930, "points": 25}
    ]
    """
    return """
    {"id": "test", "name": "Test hunt", \(extra)
     "trails": \(trails),
     "caches": \(caches ?? defaultCaches)}
    """
}

func parse(_ json: String, file: String = "caches/test.json") throws(HuntFileError) -> ParsedHunt {
    try HuntParser.parse(Data(json.utf8), file: file)
}

/// The one-line description of the first problem, or nil when the hunt parses.
func firstProblem(_ json: String) -> String? {
    do { _ = try parse(json); return nil } catch { return error.problems.first?.description }
}

@Suite struct HuntParserTests {
    @Test func readsAValidHunt() throws {
        let parsed = try parse(huntJSON(trails: #"[{"id": "t", "name": "Loop", "ordered": true, "caches": ["a1", "A3"]}]"#))
        let hunt = parsed.hunt
        #expect(hunt.id == "TEST")
        #expect(hunt.defaultRadius == 100)
        #expect(hunt.caches.map(\.id) == ["A1", "A2", "A3", "A4"])
        #expect(hunt.caches[1].radius == 30)
        #expect(abs(hunt.caches[1].coordinate.latitude - (40 + 37.674 / 60)) < 1e-12)
        #expect(hunt.caches[2].points == 33)        // (2.5 + 4) × 5 = 32.5, rounded
        #expect(hunt.caches[3].points == 25)
        #expect(hunt.trail(of: "a3")?.name == "Loop")
        #expect(hunt.trail(of: "A2") == nil)
        #expect(parsed.warnings.isEmpty)
    }

    @Test func namesFileFieldAndValueForAnOutOfRangeLatitude() {
        let json = huntJSON(caches: """
        [{"id": "A", "name": "a", "lat": 1, "lon": 1}, {"id": "B", "name": "b", "lat": 2, "lon": 2},
         {"id": "C", "name": "c", "lat": 3, "lon": 3}, {"id": "D", "name": "d", "lat": 95, "lon": 4}]
        """)
        #expect(firstProblem(json) == "caches/test.json: caches[3].lat: 95 is not a latitude (-90…90)")
    }

    @Test("each kind of mistake is named with its path", arguments: [
        (#"[{"id": "A", "name": "a", "lon": 1}]"#, "caches[0].lat: is missing"),
        (#"[{"id": "A", "name": "a", "lat": 1, "lon": 200}]"#, "caches[0].lon: 200 is not a longitude (-180…180)"),
        (#"[{"id": "A", "name": "a", "lat": "north", "lon": 1}]"#, #"caches[0].lat: "north" is not a latitude"#),
        (#"[{"id": "A_1", "name": "a", "lat": 1, "lon": 1}]"#, #"caches[0].id: "A_1" has "_", outside the code alphabet"#),
        (#"[{"id": "ABCDEFGHIJKLM", "name": "a", "lat": 1, "lon": 1}]"#, "caches[0].id: \"ABCDEFGHIJKLM\" is longer than 12 characters"),
        (#"[{"id": "A", "name": "a", "lat": 1, "lon": 1}, {"id": "a", "name": "b", "lat": 2, "lon": 2}]"#,
         #"caches[1].id: "A" is already the id of caches[0]"#),
        (#"[{"id": "A", "name": "a", "lat": 1, "lon": 1, "difficulty": 2.3}]"#, "caches[0].difficulty: 2.3 is not a rating (1 to 5 in steps of 0.5)"),
        (#"[{"id": "A", "name": "a", "lat": 1, "lon": 1, "terrain": 6}]"#, "caches[0].terrain: 6 is out of range (1…5)"),
        (#"[{"id": "A", "name": "a", "lat": 1, "lon": 1, "radius": 0}]"#, "caches[0].radius: 0 is not a radius"),
        (#"[{"id": "A", "name": "a", "lat": 1, "lon": 1, "points": 2.5}]"#, "caches[0].points: 2.5 is not a whole number"),
        (#"[{"id": "A", "name": "a", "lat": 1, "lon": 1, "raduis": 5}]"#, "caches[0].raduis: is not a field here"),
        (#"[{"id": "A", "name": 7, "lat": 1, "lon": 1}]"#, "caches[0].name: 7 is not a string"),
        (#"[]"#, "caches: is empty"),
        (#"{"id": "A"}"#, "caches: an object is not an array"),
        (#"[3]"#, "caches[0]: 3 is not a cache (JSON object)"),
    ])
    func reportsMistake(caches: String, expected: String) {
        let problem = firstProblem(huntJSON(caches: caches))
        #expect(problem?.hasPrefix("caches/test.json: " + expected) == true, "got \(problem ?? "no problem")")
    }

    @Test func reportsTrailMistakes() {
        #expect(firstProblem(huntJSON(trails: #"[{"id": "t", "name": "T", "caches": ["ZZ"]}]"#))
                == #"caches/test.json: trails[0].caches[0]: "ZZ" is not the id of a cache in this hunt"#)
        #expect(firstProblem(huntJSON(trails: #"[{"id": "t", "name": "T", "caches": ["A1"]}, {"id": "u", "name": "U", "caches": ["A1"]}]"#))
                == #"caches/test.json: trails[1].caches[0]: "A1" is already on trail "T""#)
        #expect(firstProblem(huntJSON(trails: #"[{"id": "t", "name": "T"}]"#)) == "caches/test.json: trails[0].caches: is missing")
    }

    @Test func reportsTimeWindowMistakes() {
        #expect(firstProblem(huntJSON(extra: #""start": "tomorrow","#))?.contains(#"start: "tomorrow" is not a time"#) == true)
        #expect(firstProblem(huntJSON(extra: #""start": "2026-11-28T10:00:00Z", "end": "2026-11-28T09:00:00Z","#))
                == "caches/test.json: end: 2026-11-28T09:00:00Z is not after start 2026-11-28T10:00:00Z")
    }

    @Test func readsTheTimeWindow() throws {
        let hunt = try parse(huntJSON(extra: #""start": "2026-11-28T09:30:00Z", "end": "2026-11-28T13:00:00+01:00","#)).hunt
        #expect(hunt.start == Date(timeIntervalSince1970: 1_795_858_200))
        #expect(hunt.end!.timeIntervalSince(hunt.start!) == 2.5 * 3600)
    }

    @Test func readsTeamsAndHintCost() throws {
        let hunt = try parse(huntJSON(extra: #""teams": [" Foxes ", "Owls"], "hintCost": 5,"#)).hunt
        #expect(hunt.teams == ["Foxes", "Owls"])
        #expect(hunt.hintCost == 5)
        let plain = try parse(huntJSON()).hunt
        #expect(plain.teams.isEmpty && plain.hintCost == 0, "no list: any team; no cost: free hints")
    }

    @Test("a bad team list or hint cost is named with its path and value", arguments: [
        (#""teams": "Foxes","#, #"teams: "Foxes" is not an array"#),
        (#""teams": ["Foxes", 3],"#, "teams[1]: 3 is not a team name"),
        (#""teams": ["Foxes", "  "],"#, #"teams[1]: "  " is not a team name (1 to 32 characters, no control characters)"#),
        (#""teams": ["Foxes", "Owls", "foxes"],"#, #"teams[2]: "foxes" is already teams[0] (team names ignore case)"#),
        (#""hintCost": -1,"#, "hintCost: -1 is out of range (0…1000000)"),
        (#""hintCost": 2.5,"#, "hintCost: 2.5 is not a whole number"),
        (#""hintCost": "5","#, #"hintCost: "5" is not a number"#),
    ])
    func reportsTeamAndHintMistakes(extra: String, expected: String) {
        #expect(firstProblem(huntJSON(extra: extra)) == "caches/test.json: " + expected)
    }

    @Test func readsHowLongPositionsAreKept() throws {
        #expect(try parse(huntJSON()).hunt.positionRetentionHours == 72, "the default")
        #expect(try parse(huntJSON(extra: #""positionRetentionHours": 0,"#)).hunt.positionRetentionHours == 0)
        #expect(try parse(huntJSON(extra: #""positionRetentionHours": 1.5,"#)).hunt.positionRetentionHours == 1.5)
        #expect(firstProblem(huntJSON(extra: #""positionRetentionHours": -1,"#))
                == "caches/test.json: positionRetentionHours: -1 is out of range (0…8760)")
        #expect(firstProblem(huntJSON(extra: #""positionRetentionHours": "72","#))
                == #"caches/test.json: positionRetentionHours: "72" is not a number"#)
    }

    @Test func refusesWhatIsNotAHunt() {
        #expect(firstProblem("") == "caches/test.json: is empty, not a hunt (JSON object)")
        #expect(firstProblem("{\n  \"id\": \"x\",\n  oops\n}")?.hasPrefix("caches/test.json: is not valid JSON") == true)
        #expect(firstProblem("[1, 2]") == "caches/test.json: an array is not a hunt (JSON object)")
        #expect(firstProblem(#"{"name": "x", "caches": [{"id": "A", "name": "a", "lat": 1, "lon": 1}]}"#)
                == "caches/test.json: id: is missing")
    }

    @Test func collectsEveryProblemInOnePass() {
        do {
            _ = try parse(huntJSON(caches: #"[{"id": "A", "name": "a", "lat": 91, "lon": 181}, {"id": "A", "name": "", "lat": 1, "lon": 1}]"#))
            Issue.record("expected problems")
        } catch {
            // lat, lon and the empty name; the duplicate id of a cache that failed is not counted.
            #expect(error.problems.count == 3)
            #expect(error.description.hasSuffix("(and 2 more errors)"))
        }
    }

    @Test func warnsAboutOverlappingRadii() throws {
        // 0.0003° of latitude is about 33 m: two 100 m circles overlap; a 10 m pair does not.
        let parsed = try parse(huntJSON(caches: """
        [{"id": "A", "name": "a", "lat": 10.0000, "lon": 20},
         {"id": "B", "name": "b", "lat": 10.0003, "lon": 20},
         {"id": "C", "name": "c", "lat": 11.0000, "lon": 20, "radius": 10},
         {"id": "D", "name": "d", "lat": 11.0003, "lon": 20, "radius": 10}]
        """))
        #expect(parsed.warnings.count == 1)
        let warning = try #require(parsed.warnings.first)
        #expect(warning.severity == .warning)
        #expect(warning.description.hasPrefix("caches/test.json: caches[1]: warning: claim radius of B overlaps A (caches[0]): 33 m apart"))
    }
}

/// The next cache of an ordered trail, which the phone's and the control room's maps mark.
@Suite struct NextOnTrailTests {
    let hunt = Hunt(id: "T", name: "T", trails: [
        Trail(id: "river", name: "River", ordered: true, cacheIDs: ["A1", "A2", "A3"]),
        Trail(id: "park", name: "Park", ordered: false, cacheIDs: ["B1", "B2"]),
    ], caches: ["A1", "A2", "A3", "B1", "B2"].map {
        Cache(id: $0, name: $0, coordinate: Coordinate(latitude: 40.63, longitude: -8.65))
    })

    @Test func theFirstCacheNotFoundOfEachOrderedTrail() {
        #expect(hunt.nextOnTrails(found: []) == ["A1"])
        #expect(hunt.nextOnTrails(found: ["A1"]) == ["A2"])
        #expect(hunt.nextOnTrails(found: ["A2"]) == ["A1"], "found out of order, the first not found is still next")
        #expect(hunt.nextOnTrails(found: ["A1", "A2", "A3"]).isEmpty, "a trail done has no next")
        #expect(!hunt.nextOnTrails(found: []).contains("B1"), "an unordered trail has none")
    }
}
