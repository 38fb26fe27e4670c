import Foundation
import GeoQR
import Testing
@testable import Interchange

@Suite struct GPXReaderTests {
    @Test func readsAGroundspeak101PocketQuery() throws {
        var all: [GPXWaypoint] = []
        let info = try GPXReader.read(try XMLStream(file: fixture("pq-101.gpx"))) { all.append($0) }
        #expect(info.name == "Aveiro canals")
        #expect(info.dialects == [.gpx10, .groundspeak101])
        #expect(all.map(\.code) == ["GC1BKP3", "GC2XYZ9", "GC3ARCH"])
        let first = try #require(all.first?.cache)
        #expect(first.name == "Moliceiro")
        #expect(first.container == "Small")
        #expect(first.owner == "Ana")
        #expect(first.difficulty == "1.5")
        #expect(first.attributes == [GeocacheAttribute(id: 32, applies: true, name: "Bicycles"),
                                     GeocacheAttribute(id: 1, applies: false, name: "Dogs")])
        #expect(first.travelBugs == [TravelBug(reference: "TB1A2B3", name: "Rubber Duck")])
        #expect(first.shortDescriptionIsHTML)
        #expect(first.longDescription?.contains("<b>moliceiros</b>") == true)   // CDATA kept as HTML text
        #expect(all[0].coordinate == Coordinate(latitude: 40.641117, longitude: -8.653950))
        #expect(all[0].line == 8)
        #expect(all[2].cache?.archived == true && all[2].cache?.available == false)
    }

    @Test func readsGroundspeak10Namespace() throws {
        var all: [GPXWaypoint] = []
        let info = try GPXReader.read(try XMLStream(file: fixture("single-10.gpx"))) { all.append($0) }
        #expect(info.dialects.contains(.groundspeak10))
        #expect(all.first?.cache?.name == "Fernsehturm & Alex")
        #expect(all.first?.cache?.placedBy == "Jörg")
    }

    @Test func readsOpencachingExtension() throws {
        var all: [GPXWaypoint] = []
        let info = try GPXReader.read(try XMLStream(file: fixture("opencaching.gpx"))) { all.append($0) }
        #expect(info.dialects.contains(.opencaching))
        let oc = try #require(all.first?.opencaching)
        #expect(oc.type == "Quiz")
        #expect(oc.requiresPassword)
        #expect(oc.otherCodes == ["GC7WAWL"])
        #expect(all[1].isAdditionalWaypoint)
    }

    @Test func readsGSAKExtensionAndNotesUnknownNamespaces() throws {
        var all: [GPXWaypoint] = []
        let info = try GPXReader.read(try XMLStream(file: fixture("gsak.gpx"))) { all.append($0) }
        #expect(info.dialects.contains(.gsak))
        #expect(all[0].gsak?.favoritePoints == 12)
        #expect(all[0].gsak?.originalLatitude == "48.858000")
        #expect(all[1].gsak?.parent == "GCEIFFL")
        #expect(info.unknownNamespaces == ["http://example.com/acme/1": 29])
    }

    @Test func readsPlainGPX11WithLinksAndSkipsTracks() throws {
        var all: [GPXWaypoint] = []
        let info = try GPXReader.read(try XMLStream(file: fixture("plain-11.gpx"))) { all.append($0) }
        #expect(info.dialects == [.gpx11])
        #expect(info.name == "Scout camp points")
        #expect(info.tracksAndRoutes == 1)
        #expect(all.count == 3)
        #expect(all[0].urlName == "Opera House")
        #expect(all[0].url == "https://example.org/opera")
        #expect(all[0].description == "Sails & steps")
    }
}

@Suite struct HTMLTextTests {
    @Test func reducesHTMLToText() {
        let html = "<p>Go <b>north</b> &amp; look up.</p><ul><li>Caf&eacute; &#9749;</li><li>Pen &#x1F58A;</li></ul><script>x()</script>"
        #expect(HTMLText.plain(html) == "Go north & look up.\n\n• Café ☕\n• Pen 🖊")
    }

    @Test func keepsUnknownEntitiesAndLoneAmpersands() {
        #expect(HTMLText.plain("AT&T &bogus; 1 < 2") == "AT&T &bogus; 1 < 2")
    }
}
