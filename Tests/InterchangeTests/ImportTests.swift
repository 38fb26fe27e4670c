import Foundation
import GeoQR
import Testing
@testable import Interchange

@Suite struct ImportTests {
    @Test func pocketQueryWithCompanionMakesAValidHuntAndSidecar() throws {
        let out = try importFile(fixture("pq-101.gpx"))
        let hunt = out.parsed.hunt
        #expect(hunt.name == "Aveiro canals")
        #expect(hunt.defaultRadius == 80)
        #expect(hunt.caches.map(\.id) == ["GC1BKP3", "GC2XYZ9"])      // GC3ARCH archived
        let moliceiro = hunt.caches[0]
        #expect(moliceiro.difficulty == 1.5 && moliceiro.terrain == 2)
        #expect(moliceiro.message == "Boats & canals of Aveiro")
        #expect(moliceiro.hint == "Under the bench, near the \"S\" sign")
        // No short description: the message is the long one, which was plain text ("x < 5" kept).
        #expect(hunt.caches[1].message == "Start at the parking. Count the tiles: x < 5 means left.")
        #expect(hunt.caches[1].difficulty == 3)                          // 3.2 rounded to a half star

        let entry = try #require(out.result.sidecar.cache(id: "GC1BKP3"))
        #expect(entry.type == "Traditional Cache")
        #expect(entry.container == "Small")
        #expect(entry.owner == "Ana")
        #expect(entry.longDescription == "The moliceiros carried seaweed.\n\n• Café nearby ☕\n• Bring a pen 🖊️")
        #expect(entry.trackables == [TravelBug(reference: "TB1A2B3", name: "Rubber Duck")])
        #expect(entry.waypoints?.map(\.code) == ["PK1BKP3"])
        #expect(entry.waypoints?.first?.type == "Parking Area")
        #expect(out.result.sidecar.cache(id: "GC2XYZ9")?.waypoints?.map(\.code) == ["012XYZ9"])

        let report = out.result.report
        #expect(report.caches == 2 && report.waypointsAttached == 2 && report.trackables == 1)
        #expect(report.skipped.map(\.code) == ["GC3ARCH", "PK9ZZZZ"])
        #expect(report.skipped[0].location.hasSuffix("pq-101.gpx:70"))
        #expect(report.changed.map(\.reason) == ["difficulty 3.2 set to 3"])
    }

    @Test func includeArchivedKeepsArchivedCaches() throws {
        let out = try importFile(fixture("pq-101.gpx"), includeArchived: true)
        #expect(out.parsed.hunt.caches.map(\.id).contains("GC3ARCH"))
        #expect(out.result.sidecar.cache(id: "GC3ARCH")?.archived == true)
    }

    @Test func opencachingAndGSAKWaypointsAttach() throws {
        let oc = try importFile(fixture("opencaching.gpx"))
        let entry = try #require(oc.result.sidecar.cache(id: "OP1234"))
        #expect(entry.opencaching?.requiresPassword == true)
        #expect(entry.waypoints?.first?.note == "Question: how many heads?")

        let gsak = try importFile(fixture("gsak.gpx"))
        let eiffel = try #require(gsak.result.sidecar.cache(id: "GCEIFFL"))
        #expect(eiffel.waypoints?.map(\.code) == ["P0EIFFL"])
        #expect(eiffel.note == "Solved: corrected to the north pillar")
        #expect(eiffel.postedLatitude == 48.858)
        #expect(gsak.result.report.notes.contains { $0.contains("unknown namespace http://example.com/acme/1") && $0.contains("gsak.gpx:29") })
    }

    @Test func plainWaypointsGetIdsFromTheirNamesAndReportChanges() throws {
        let out = try importFile(fixture("plain-11.gpx"))
        let hunt = out.parsed.hunt
        #expect(hunt.caches.map(\.id) == ["OPERA", "HARBOUR-BRID", "A-VERY-LONG"])
        #expect(hunt.caches[0].name == "Opera House")
        #expect(hunt.caches[1].name == "Harbour Bridge pylon")
        #expect(hunt.caches[1].message == "Climb not needed")
        #expect(out.result.sidecar.cache(id: "HARBOUR-BRID")?.code == "Harbour Bridge pylon")
        #expect(out.result.report.changed.count == 2)
        #expect(out.result.report.changed[0].reason.contains("longer than 12"))
        #expect(out.result.report.notes.contains { $0.contains("ignored 1 tracks and routes") })
    }

    @Test func shortenedIdsThatCollideAreMadeUnique() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        write(gpx10("""
        <wpt lat="1" lon="1"><name>ABCDEFGHIJKLMNOP</name></wpt>
        <wpt lat="2" lon="2"><name>ABCDEFGHIJKLMXYZ</name></wpt>
        """), to: "\(dir)/long.gpx")
        let out = try importFile("\(dir)/long.gpx")
        #expect(out.parsed.hunt.caches.map(\.id) == ["ABCDEFGHIJKL", "ABCDEFGHIJ-2"])
    }

    @Test func longDescriptionsAreCutForTheMessageButKeptWhole() throws {
        let long = String(repeating: "word ", count: 300)
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        write(gpx10("""
        <wpt lat="1" lon="1"><name>GCLONG1</name><groundspeak:cache id="1" available="True" archived="False">
        <groundspeak:name>Long</groundspeak:name><groundspeak:long_description html="False">\(long)</groundspeak:long_description>
        </groundspeak:cache></wpt>
        """), to: "\(dir)/l.gpx")
        let out = try importFile("\(dir)/l.gpx")
        let message = out.parsed.hunt.caches[0].message
        #expect(message.count <= HuntImport.messageLimit)
        #expect(message.hasSuffix("word…"))
        #expect(out.result.sidecar.cache(id: "GCLONG1")?.longDescription?.count == long.count - 1)
    }

    @Test func zippedPocketQueryReadsCachesThenCompanion() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let zip = "\(dir)/pq.zip"
        // Companion first in the archive: it must still be read after the caches.
        try makeZip(zip, files: [
            "1234567-wpts.gpx": try String(contentsOfFile: fixture("pq-101-wpts.gpx"), encoding: .utf8),
            "1234567.gpx": try String(contentsOfFile: fixture("pq-101.gpx"), encoding: .utf8),
        ])
        let out = try importFile(zip)
        #expect(out.parsed.hunt.caches.map(\.id) == ["GC1BKP3", "GC2XYZ9"])
        #expect(out.result.report.waypointsAttached == 2)
        #expect(out.result.sidecar.sources == ["\(zip):1234567.gpx", "\(zip):1234567-wpts.gpx"])
    }
}
