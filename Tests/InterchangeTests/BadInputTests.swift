import Foundation
import GeoQR
import Testing
@testable import Interchange

@Suite struct BadInputTests {
    @Test func malformedXMLNamesTheLine() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        write(gpx10("<wpt lat=\"1\" lon=\"2\">\n<name>GC1</nam>\n</wpt>"), to: "\(dir)/bad.gpx")
        let message = try #require(importError("\(dir)/bad.gpx"))
        #expect(message.hasPrefix("\(dir)/bad.gpx:4: is not well-formed XML"), "\(message)")
        #expect(!message.contains("\n"))
    }

    @Test func wrongRootElement() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        write("<?xml version=\"1.0\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document/></kml>", to: "\(dir)/x.gpx")
        #expect(importError("\(dir)/x.gpx") == "\(dir)/x.gpx:2: root element is <kml>, not <gpx>: not a GPX file")
    }

    @Test("missing and out-of-range coordinates", arguments: [
        (#"<wpt lon="2"><name>GC1</name></wpt>"#, "wpt has no lat attribute (latitude)"),
        (#"<wpt lat="95" lon="2"><name>GC1</name></wpt>"#, #"wpt lat="95" is not a latitude (-90…90)"#),
        (#"<wpt lat="1" lon="-181.5"><name>GC1</name></wpt>"#, #"wpt lon="-181.5" is not a longitude (-180…180)"#),
        (#"<wpt lat="north" lon="2"><name>GC1</name></wpt>"#, #"wpt lat="north" is not a number"#),
    ])
    func badCoordinates(body: String, expected: String) throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        write(gpx10(body), to: "\(dir)/c.gpx")
        #expect(importError("\(dir)/c.gpx") == "\(dir)/c.gpx:3: \(expected)")
    }

    @Test func duplicateCodesAreSkippedWithBothLines() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        write(gpx10("""
        <wpt lat="1" lon="1"><name>GC1</name></wpt>
        <wpt lat="2" lon="2"><name>gc1</name></wpt>
        """), to: "\(dir)/d.gpx")
        let out = try importFile("\(dir)/d.gpx")
        #expect(out.parsed.hunt.caches.count == 1)
        #expect(out.result.report.skipped.map(\.description) == ["gc1 (\(dir)/d.gpx:4) duplicate code (first at \(dir)/d.gpx:3)"])
    }

    @Test func aFileWithNoCachesIsAnError() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        write(gpx10(""), to: "\(dir)/e.gpx")
        #expect(importError("\(dir)/e.gpx") == "\(dir)/e.gpx: no caches to import")
    }

    @Test func truncatedZip() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try makeZip("\(dir)/pq.zip", files: ["1.gpx": try String(contentsOfFile: fixture("pq-101.gpx"), encoding: .utf8)])
        let whole = try Data(contentsOf: URL(fileURLWithPath: "\(dir)/pq.zip"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: "\(dir)/cut.zip"))
        #expect(importError("\(dir)/cut.zip") == "\(dir)/cut.zip: is not a complete zip archive (truncated or damaged)")
    }

    @Test func zipWithoutGPX() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try makeZip("\(dir)/notes.zip", files: ["readme.txt": "hello", "photo.jpg": "not really"])
        #expect(importError("\(dir)/notes.zip") == "\(dir)/notes.zip: has no .gpx file (entries: photo.jpg, readme.txt)")
    }

    @Test func externalEntitiesAreNeverResolved() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let secret = "\(dir)/secret.txt"
        write("TOP-SECRET-CONTENT", to: secret)
        write("""
        <?xml version="1.0"?>
        <!DOCTYPE gpx [<!ENTITY xxe SYSTEM "file://\(secret)">]>
        <gpx version="1.0" creator="x" xmlns="http://www.topografix.com/GPX/1/0">
        <wpt lat="1" lon="1"><name>GC1</name><desc>&xxe;</desc></wpt>
        </gpx>
        """, to: "\(dir)/xxe.gpx")
        let message = try #require(importError("\(dir)/xxe.gpx"))
        #expect(!message.contains("TOP-SECRET"))
        #expect(message == "\(dir)/xxe.gpx: has a DOCTYPE before <gpx>; DTDs and entities are refused (GPX does not use them)")
        // The reader itself never hands the content over, whichever way it stops.
        var texts: [String] = []
        do {
            let stream = try XMLStream(file: "\(dir)/xxe.gpx")
            while let event = try stream.next() { if case .text(let t) = event { texts.append(t) } }
        } catch {}
        #expect(!texts.joined().contains("TOP-SECRET"))
    }

    @Test(.timeLimit(.minutes(1)))
    func billionLaughsStopsQuickly() throws {
        var entities = #"<!ENTITY lol0 "lollollollollollollollollollol">"#
        for i in 1...9 {
            entities += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">"
        }
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        write("""
        <?xml version="1.0"?>
        <!DOCTYPE gpx [\(entities)]>
        <gpx version="1.0" creator="x" xmlns="http://www.topografix.com/GPX/1/0" a="&lol9;">
        <wpt lat="1" lon="1"><name>&lol9;</name></wpt>
        </gpx>
        """, to: "\(dir)/lol.gpx")
        let start = Date()
        let message = try #require(importError("\(dir)/lol.gpx"))
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(message.hasPrefix("\(dir)/lol.gpx:"), "\(message)")
        // libxml2's own amplification guard stops it while parsing the DTD; the DOCTYPE refusal
        // behind it would stop it next.
        #expect(message.contains("entity reference loop") || message.contains("DOCTYPE"), "\(message)")
    }

    @Test func gpxInAnotherNamespaceIsRefused() throws {
        let dir = scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        write(#"<gpx xmlns="http://example.com/not-gpx"><wpt lat="1" lon="1"/></gpx>"#, to: "\(dir)/n.gpx")
        #expect(importError("\(dir)/n.gpx") == "\(dir)/n.gpx:1: <gpx> is in namespace \"http://example.com/not-gpx\", not GPX 1.0 or 1.1")
    }
}
