import Foundation
import GeoQR
import QRImaging
import Testing

@Suite struct CachesListTests {
    @Test func listsTheDemoHunt() throws {
        let geoqr = try GeoQRProcess()
        let r = try geoqr.run("caches", "list", "demo")
        #expect(r.status == 0)
        #expect(r.stdout.contains("A1  Rectorate steps"))
        #expect(r.stdout.contains("N 40° 37.818' W 008° 39.450'"))
        #expect(r.stdout.contains("Lagoon walk"))
    }

    @Test func listsAsJSON() throws {
        let geoqr = try GeoQRProcess()
        let r = try geoqr.run("caches", "list", "demo", "--json")
        let json = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        let caches = try #require(json["caches"] as? [[String: Any]])
        #expect(caches.count == 5)
        #expect(caches.map { $0["id"] as? String } == ["A1", "A2", "A3", "B1", "B2"])
        #expect(caches[2]["radius"] as? Double == 60)
        #expect(caches[0]["trail"] as? String == "LAGOON")
        #expect(caches[0]["message"] == nil, "messages are for finders, not listings")
    }

    @Test func reportsEveryProblemOnItsOwnLine() throws {
        let geoqr = try GeoQRProcess()
        try geoqr.write("""
        {"id": "bad", "name": "Bad", "caches": [
          {"id": "A", "name": "a", "lat": 1, "lon": 1}, {"id": "B", "name": "b", "lat": 2, "lon": 2},
          {"id": "C", "name": "c", "lat": 3, "lon": 3}, {"id": "D", "name": "d", "lat": 95, "lon": 4},
          {"id": "a", "name": "e", "lat": 5, "lon": 5}]}
        """, to: "caches/bad.json")
        let r = try geoqr.run("caches", "list", "bad")
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines == ["caches/bad.json: caches[3].lat: 95 is not a latitude (-90…90)",
                          #"caches/bad.json: caches[4].id: "A" is already the id of caches[0]"#])
    }

    @Test("bad hunt files give one line and exit 1", arguments: [
        ("caches/nope.json", "", "caches/nope.json: no such file"),
        ("caches/text.json", "hello", "caches/text.json: is not valid JSON"),
        ("caches/array.json", "[1]", "caches/array.json: an array is not a hunt (JSON object)"),
    ])
    func badFiles(path: String, content: String, expected: String) throws {
        let geoqr = try GeoQRProcess()
        if !content.isEmpty { try geoqr.write(content, to: path) }
        for args in [["caches", "list", path], ["print", path, "-o", "out.pdf"], ["code", path, "A1", "-o", "a.png"]] {
            let r = try geoqr.run(arguments: args)
            #expect(r.status == 1, "\(args)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.contains(expected), "\(args): \(r.stderr)")
            #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack"))
        }
        #expect(!FileManager.default.fileExists(atPath: geoqr.path("out.pdf")))
    }

    @Test func aMissingHuntNameListsTheHuntsThereAre() throws {
        let r = try GeoQRProcess().run("caches", "list", "demoo")
        #expect(r.status == 1)
        #expect(r.stderr.contains("hunts here: demo, edinburgh"))
    }
}

@Suite struct CodeAndVerifyTests {
    @Test func aCodeVerifiesAndAForgeryDoesNot() throws {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("code", "demo", "A2", "-o", "a2.png", "--size", "4").status == 0)
        let image = try PNGCodec.decode(try Data(contentsOf: URL(fileURLWithPath: geoqr.path("a2.png"))))
        let payload = try #require(SymbolReader().read(image).first?.text)
        #expect(payload.hasPrefix("GQ1.DEMO.A2."))

        let ok = try geoqr.run("verify", payload, "--hunt", "demo", "--json")
        #expect(ok.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: ok.stdoutData) as? [String: Any])
        #expect(json["valid"] as? Bool == true && json["cache"] as? String == "A2")

        var forged = payload
        forged.removeLast()
        forged += payload.hasSuffix("A") ? "B" : "A"
        let bad = try geoqr.run("verify", forged, "--hunt", "demo")
        #expect(bad.status == 1)
        #expect(bad.stdout.hasPrefix("rejected (bad-mac)"))
        #expect(try geoqr.run("verify", "https://example.org/", "--hunt", "demo").stdout.hasPrefix("rejected (malformed)"))
        #expect(try geoqr.run("verify", payload, "--hunt", "edinburgh").status == 1)
    }

    @Test func theSecretStaysInTheDataDirectoryAndIsReused() throws {
        let geoqr = try GeoQRProcess()
        let first = try geoqr.run("code", "demo", "A1", "-o", "-", "--format", "utf8")
        let second = try geoqr.run("code", "demo", "A1", "-o", "-", "--format", "utf8")
        #expect(first.status == 0 && first.stdout == second.stdout)
        let key = geoqr.dataDirectory.appendingPathComponent("secrets/DEMO.key").path
        let attributes = try FileManager.default.attributesOfItem(atPath: key)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: geoqr.dataDirectory.path)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        let caches = try FileManager.default.contentsOfDirectory(atPath: geoqr.path("caches"))
        #expect(caches.allSatisfy { $0.hasSuffix(".json") }, "no secrets in caches/")
        // Another data directory signs differently, so its codes do not verify here.
        let elsewhere = try geoqr.run("code", "demo", "A1", "-o", "-", "--format", "utf8",
                                      environment: ["GEOQR_DATA": geoqr.path("other-data")])
        #expect(elsewhere.stdout != first.stdout)
    }

    @Test func terminalCodeLooksLikeQrencodes() throws {
        let r = try GeoQRProcess().run("code", "demo", "A1", "-o", "-", "--format", "utf8", "--margin", "2")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first?.allSatisfy { $0 == "█" } == true)
        #expect(Set(r.stdout).isSubset(of: Set("█▀▄ \n")))
    }

    @Test func everyCacheIntoAFolder() throws {
        let geoqr = try GeoQRProcess()
        let r = try geoqr.run("code", "demo", "-o", "codes", "--format", "svg", "--json")
        #expect(r.status == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: geoqr.path("codes")).sorted()
        #expect(files == ["A1.svg", "A2.svg", "A3.svg", "B1.svg", "B2.svg"])
        #expect(r.stdout.contains("codes/B2.svg"))
    }

    @Test("usage mistakes fail before any work", arguments: [
        ["code", "demo", "A1", "-o", "a.png", "--size", "0"],
        ["code", "demo", "A1", "-o", "a.gif"],
        ["code", "demo", "A1", "-o", "a.png", "--level", "X"],
        ["print", "demo", "--layout", "stickers", "-o", "s.pdf"],
        ["print", "demo", "--paper", "a5", "-o", "s.pdf"],
        ["print", "demo", "-o", "s.docx"],
        ["print", "demo", "-o", "s.pdf", "--base-url", "ftp://x"],
        ["print", "demo", "-o", "s.pdf", "--base-url", "https://café.local"],
    ])
    func usageMistakes(_ arguments: [String]) throws {
        let geoqr = try GeoQRProcess()
        let r = try geoqr.run(arguments: arguments)
        #expect(r.status != 0)
        #expect(r.stderr.contains("Error:") || r.stderr.contains("geoqr:"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: geoqr.workingDirectory.path) == ["caches"])
        #expect(!FileManager.default.fileExists(atPath: geoqr.dataDirectory.path), "no secret made for a rejected command")
    }

    @Test func anUnknownCacheNamesTheOnesThereAre() throws {
        let r = try GeoQRProcess().run("code", "demo", "Z9", "-o", "z.png")
        #expect(r.status == 1)
        #expect(r.stderr == "geoqr: caches/demo.json: no cache \"Z9\" (caches: A1, A2, A3, B1, B2)\n")
    }
}

@Suite struct PrintTests {
    @Test func printsTheDemoSheet() throws {
        let geoqr = try GeoQRProcess()
        let r = try geoqr.run("print", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: r.stdoutData) as? [String: Any])
        #expect(json["files"] as? [String] == ["demo-sheet.pdf"])
        #expect(json["caches"] as? Int == 5 && json["pages"] as? Int == 1)
        let pdf = try Data(contentsOf: URL(fileURLWithPath: geoqr.path("demo-sheet.pdf")))
        #expect(pdf.starts(with: Data("%PDF-".utf8)))
        let secret = try Data(contentsOf: geoqr.dataDirectory.appendingPathComponent("secrets/DEMO.key"))
        #expect(pdf.range(of: secret) == nil, "the secret is never on a sheet")
    }

    @Test func pngPagesAreNumbered() throws {
        let geoqr = try GeoQRProcess()
        let r = try geoqr.run("print", "edinburgh", "--layout", "poster", "-o", "poster.png")
        #expect(r.status == 0, "\(r.stderr)")
        for page in 1...7 { #expect(FileManager.default.fileExists(atPath: geoqr.path("poster-\(page).png"))) }
        #expect(!FileManager.default.fileExists(atPath: geoqr.path("poster.png")))
    }

    @Test func anUnwritableOutputLeavesNothingBehind() throws {
        let geoqr = try GeoQRProcess()
        try FileManager.default.createDirectory(atPath: geoqr.path("locked"), withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o500], ofItemAtPath: geoqr.path("locked"))
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: geoqr.path("locked")) }
        let r = try geoqr.run("print", "demo", "-o", "locked/sheet.pdf")
        if getuid() == 0 {
            // root writes anywhere; use a path under a file instead.
            let r2 = try geoqr.run("print", "demo", "-o", "caches/demo.json/sheet.pdf")
            #expect(r2.status == 1)
            #expect(r2.stderr.hasPrefix("geoqr: caches/demo.json/sheet.pdf: cannot write:"))
        } else {
            #expect(r.status == 1)
            #expect(r.stderr.hasPrefix("geoqr: locked/sheet.pdf: cannot write:"))
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: geoqr.path("locked"))
        #expect(leftovers.isEmpty || getuid() == 0)
    }

    @Test func anUnusableDataDirectoryIsOneLine() throws {
        let geoqr = try GeoQRProcess()
        try geoqr.write("not a folder", to: "datafile")
        let r = try geoqr.run("print", "demo", "-o", "s.pdf", "--data", geoqr.path("datafile"))
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.contains("datafile: cannot write to the data directory"))
        #expect(!FileManager.default.fileExists(atPath: geoqr.path("s.pdf")))
    }
}

@Suite struct HuntSchemaTests {
    /// The committed JSON Schema and the parser agree: every hunt in caches/ passes both, and a
    /// broken one fails both.
    @Test func schemaAcceptsTheShippedHuntsAndRejectsABrokenOne() throws {
        let root = GeoQRProcess.packageRoot.appendingPathComponent("caches")
        let script = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1]))
        v = jsonschema.Draft202012Validator(schema)
        for f in sys.argv[2:]:
            errors = list(v.iter_errors(json.load(open(f))))
            print(f, "ok" if not errors else "invalid")
        """
        let geoqr = try GeoQRProcess()
        try geoqr.write(#"{"id": "x", "name": "X", "caches": [{"id": "A_1", "name": "a", "lat": 95, "lon": 1}]}"#, to: "broken.json")
        let hunts = try FileManager.default.contentsOfDirectory(atPath: root.path)
            .filter { $0.hasSuffix(".json") && $0 != "hunt.schema.json" }.sorted()
        #expect(hunts.count >= 2)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, root.appendingPathComponent("hunt.schema.json").path]
            + hunts.map { root.appendingPathComponent($0).path } + [geoqr.path("broken.json")]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = text.split(separator: "\n")
        #expect(lines.count == hunts.count + 1)
        #expect(lines.dropLast().allSatisfy { $0.hasSuffix(" ok") }, "\(text)")
        #expect(lines.last?.hasSuffix(" invalid") == true)
        for hunt in hunts { #expect(try geoqr.run("caches", "list", "caches/" + hunt).status == 0) }
        #expect(try geoqr.run("caches", "list", "broken.json").status == 1)
    }
}
