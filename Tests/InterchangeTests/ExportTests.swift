import Foundation
import GeoQR
import Testing
@testable import Interchange

/// `xmllint --schema` over a GPX document; returns xmllint's verdict.
func validateWithXmllint(_ data: Data) throws -> Run {
    let dir = scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try data.write(to: URL(fileURLWithPath: "\(dir)/out.gpx"))
    return try run("/usr/bin/xmllint", ["--noout", "--schema", fixture("gpx-subset.xsd"), "\(dir)/out.gpx"])
}

let sampleFinds = [
    FoundLog(cacheID: "GC1BKP3", cacheName: "Moliceiro", coordinate: Coordinate(latitude: 40.641117, longitude: -8.65395),
             foundAt: Date(timeIntervalSince1970: 1_795_256_100), text: "Lovely walk, \"thanks\"\nfor the cache ☕"),
    FoundLog(cacheID: "A1", cacheName: "Gate & steps", coordinate: Coordinate(latitude: -33.5, longitude: 151.25),
             foundAt: Date(timeIntervalSince1970: 1_795_260_000), text: "<b>TFTC</b>"),
]

@Suite struct ExportTests {
    @Test func importExportImportGivesTheSameHunt() throws {
        for name in ["pq-101.gpx", "single-10.gpx", "opencaching.gpx", "gsak.gpx", "plain-11.gpx"] {
            let first = try importFile(fixture(name))
            let gpx = GPXWriter.hunt(first.parsed.hunt, sidecar: first.result.sidecar, generated: Date(timeIntervalSince1970: 0))
            let dir = scratchDirectory()
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try gpx.write(to: URL(fileURLWithPath: "\(dir)/again.gpx"))
            let second = try importFile("\(dir)/again.gpx")
            var again = second.parsed.hunt
            again.name = first.parsed.hunt.name      // the export names its file after the hunt; same text
            #expect(again == first.parsed.hunt, "\(name)")
            #expect(second.result.report.waypointsAttached == first.result.report.waypointsAttached, "\(name)")
            #expect(second.result.sidecar.caches.map(\.trackables) == first.result.sidecar.caches.map(\.trackables), "\(name)")
        }
    }

    @Test func exportedGPXValidatesAgainstTheSchema() throws {
        let out = try importFile(fixture("pq-101.gpx"))
        let gpx = GPXWriter.hunt(out.parsed.hunt, sidecar: out.result.sidecar, generated: Date(timeIntervalSince1970: 0))
        let verdict = try validateWithXmllint(gpx)
        #expect(verdict.status == 0, "\(verdict.stderr)")
        // Without a sidecar (a hand-written hunt) too, with characters XML must escape.
        let hunt = Hunt(id: "T", name: "Fish & <chips>", caches: [
            Cache(id: "A1", name: "Ça \"va\" 🎉", coordinate: Coordinate(latitude: 0.00001, longitude: -179.5),
                  difficulty: 4.5, terrain: 5, message: "a < b && c\u{1}", hint: "]]> here"),
        ])
        let plain = GPXWriter.hunt(hunt, generated: Date(timeIntervalSince1970: 0))
        let plainVerdict = try validateWithXmllint(plain)
        #expect(plainVerdict.status == 0, "\(plainVerdict.stderr)")
        #expect(String(decoding: plain, as: UTF8.self).contains(#"lat="0.00001""#))
    }

    @Test func schemaRejectsWhatGeoQRMustNotWrite() throws {
        // The schema is a real check: a rating off the half-star scale fails it.
        let bad = String(decoding: GPXWriter.hunt(Hunt(id: "T", name: "t", caches: [
            Cache(id: "A1", name: "a", coordinate: Coordinate(latitude: 1, longitude: 1)),
        ]), generated: Date(timeIntervalSince1970: 0)), as: UTF8.self)
            .replacingOccurrences(of: "<groundspeak:difficulty>1</groundspeak:difficulty>", with: "<groundspeak:difficulty>1.3</groundspeak:difficulty>")
        #expect(try validateWithXmllint(Data(bad.utf8)).status != 0)
    }

    @Test func findsAsGPXHaveFoundSymbolsAndLogs() throws {
        let data = GPXWriter.finds(sampleFinds, player: "Rui", generated: Date(timeIntervalSince1970: 0))
        let verdict = try validateWithXmllint(data)
        #expect(verdict.status == 0, "\(verdict.stderr)")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.components(separatedBy: "<sym>Geocache Found</sym>").count == 3)
        #expect(text.contains("<groundspeak:type>Found it</groundspeak:type>"))
        #expect(text.contains("<groundspeak:date>2026-11-21T10:15:00Z</groundspeak:date>"))
        #expect(text.contains("&lt;b&gt;TFTC&lt;/b&gt;"))
        let read = try waypoints(in: text)
        #expect(read.map(\.code) == ["GC1BKP3", "A1"])
        #expect(read[1].cache?.name == "Gate & steps")
    }

    @Test func fieldNotesAreUTF16LEWithBOMOneLinePerFind() throws {
        let data = FieldNotes.data(sampleFinds)
        #expect(Array(data.prefix(4)) == [0xFF, 0xFE, UInt8(ascii: "G"), 0])
        let text = try #require(String(data: data.dropFirst(2), encoding: .utf16LittleEndian))
        #expect(text == "GC1BKP3,2026-11-21T10:15Z,Found it,\"Lovely walk, \"\"thanks\"\" for the cache ☕\"\r\n"
            + "A1,2026-11-21T11:20Z,Found it,\"<b>TFTC</b>\"\r\n")
    }

    @Test func geoJSONHasPointsInLonLatOrderAndNoMessages() throws {
        let out = try importFile(fixture("pq-101.gpx"))
        let data = try GeoJSON.caches(of: out.parsed.hunt)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["type"] as? String == "FeatureCollection")
        let features = try #require(object["features"] as? [[String: Any]])
        #expect(features.count == 2)
        let geometry = try #require(features[0]["geometry"] as? [String: Any])
        #expect(geometry["coordinates"] as? [Double] == [-8.65395, 40.641117])
        let properties = try #require(features[0]["properties"] as? [String: Any])
        #expect(properties["id"] as? String == "GC1BKP3")
        #expect(properties["difficulty"] as? Double == 1.5)
        #expect(properties["message"] == nil)
        #expect(!String(decoding: data, as: UTF8.self).contains("Boats & canals"))

        let finds = try #require(try JSONSerialization.jsonObject(with: try GeoJSON.finds(sampleFinds, player: "Rui")) as? [String: Any])
        let found = try #require((finds["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])
        #expect(found["foundAt"] as? String == "2026-11-21T10:15:00Z")
        #expect(found["player"] as? String == "Rui")
    }

    @Test func huntFileWriterOutputParsesBackToTheSameHunt() throws {
        let hunt = Hunt(id: "RT", name: "Round \"trip\"", defaultRadius: 45, accuracyCap: 20,
                        start: Date(timeIntervalSince1970: 1_795_000_000), end: Date(timeIntervalSince1970: 1_795_100_000),
                        trails: [Trail(id: "T", name: "Loop", ordered: true, cacheIDs: ["A2", "A1"])],
                        caches: [Cache(id: "A1", name: "a\tb", coordinate: Coordinate(latitude: 1.5, longitude: -2.25), radius: 30,
                                       difficulty: 2.5, terrain: 3, points: 99, message: "line\nbreak", hint: "h"),
                                 Cache(id: "A2", name: "b", coordinate: Coordinate(latitude: 3, longitude: 4))])
        let parsed = try HuntParser.parse(HuntFileWriter.data(hunt, description: "d", schema: "./hunt.schema.json"), file: "x.json")
        #expect(parsed.hunt == hunt)
    }

    @Test func coursesAndChallengesRoundTripThroughAHuntFile() throws {
        func at(_ n: Int) -> Coordinate { Coordinate(latitude: [40.60, 40.61, 40.62, 40.63][n], longitude: -8.6) }
        let hunt = Hunt(id: "PO", name: "Park", defaultRadius: 25,
                        caches: [Cache(id: "S1", name: "Start", coordinate: at(0)),
                                 Cache(id: "K1", name: "Bench", coordinate: at(1), points: 10,
                                       challenge: Challenge(kind: .question(prompt: "Colour?", answers: ["Red"], choices: ["Red", "Blue"]),
                                                            points: 5, penalty: 2, tries: 1)),
                                 Cache(id: "K2", name: "Oak", coordinate: at(2), points: 20,
                                       challenge: Challenge(kind: .photo(task: "A photo of the team at the oak"), points: 15)),
                                 Cache(id: "F1", name: "Finish", coordinate: at(3))],
                        offlineGraceMinutes: 30,
                        courses: [Course(id: "LINE", name: "Line", kind: .line, start: "S1", controls: ["K1", "K2"], finish: "F1",
                                         timeLimit: 90),
                                  Course(id: "SCORE", name: "Score", kind: .score, start: nil,
                                         massStart: Date(timeIntervalSince1970: 1_795_000_000), controls: ["K2", "K1"],
                                         finish: "F1", timeLimit: 1800, penaltyPerMinute: 5)],
                        stillOutWarningMinutes: 10)
        let text = HuntFileWriter.data(hunt)
        #expect(try HuntParser.parse(text, file: "park.json").hunt == hunt, "\(String(decoding: text, as: UTF8.self))")
    }
}
