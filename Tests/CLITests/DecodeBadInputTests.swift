import Foundation
import QRImaging
import Testing

/// `geoqr decode` on what a folder of field photos can hold besides photos (issue 3 §5): every
/// bad file gets one error line, the good ones are still read, and nothing crashes or balloons.
@Suite struct DecodeBadInputTests {
    static let payload = "GQ1.DEMO.A1.7QK2M4TZ9XB3RW5N"

    func folder(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoqr-bad-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func write(_ data: Data, _ name: String, in folder: URL) throws { try data.write(to: folder.appendingPathComponent(name)) }

    func decode(_ arguments: [String], in folder: URL) throws -> (GeoQRProcess.Result, [[String: Any]]) {
        let geoqr = try GeoQRProcess()
        let r = try geoqr.run(arguments: ["decode", "--json"] + arguments.map { folder.appendingPathComponent($0).path })
        return (r, try GeoQRProcess.jsonLines(r))
    }

    /// A PNG whose IHDR (with a correct CRC) declares `width`×`height`, then a tiny IDAT.
    static func pngBomb(width: Int, height: Int) throws -> Data {
        var png = [UInt8](try PNGCodec.encode(GrayImage(width: 8, height: 8, fill: 255)))
        func be(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((v >> $0) & 0xFF) } }
        png.replaceSubrange(16..<24, with: be(width) + be(height))
        png.replaceSubrange(29..<33, with: be(Int(crc32(png[12..<29]))))
        return Data(png)
    }

    /// A JPEG whose frame header declares `width`×`height` (both below 65536).
    static func jpegBomb(width: Int, height: Int) throws -> Data {
        var jpeg = [UInt8](try JPEGEncoder.encode(GrayImage(width: 16, height: 16, fill: 255)))
        let sof = try #require((2..<jpeg.count - 9).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 })
        jpeg.replaceSubrange((sof + 5)...(sof + 8), with: [UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF)])
        return Data(jpeg)
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return ~c
    }

    @Test func everyBadFileIsOneErrorLineAndTheGoodOnesAreStillRead() throws {
        let dir = try folder("kinds")
        defer { try? FileManager.default.removeItem(at: dir) }
        let code = try QRSymbol(encoding: Self.payload).image(moduleSize: 4, margin: 4)
        let png = try PNGCodec.encode(code), jpeg = try JPEGEncoder.encode(code)
        var corruptPNG = png, corruptJPEG = jpeg
        for i in stride(from: 60, to: corruptPNG.count - 12, by: 7) { corruptPNG[i] ^= 0x5A }
        for i in stride(from: corruptJPEG.count / 3, to: corruptJPEG.count - 2, by: 5) { corruptJPEG[i] = 0xFF }
        // A real HEIC cut short and one with its boxes scrambled (libheif's messages for these
        // run over more than one line), or, without heif-enc, a bare HEIC signature.
        let heic = try Self.heic(of: code, in: dir)
        var corruptHEIC = heic ?? Self.heicSignature
        for i in stride(from: 24, to: min(corruptHEIC.count, 400), by: 3) { corruptHEIC[i] ^= 0xA5 }
        var files: [(String, Data)] = [
            ("a-good.png", png), ("b-empty.png", Data()), ("c-empty.jpg", Data()), ("d-empty.heic", Data()),
            ("e-truncated.png", png.prefix(png.count / 2)), ("f-truncated.jpg", jpeg.prefix(200)),
            ("g-truncated.heic", (heic ?? Self.heicSignature).prefix(heic.map { $0.count / 2 } ?? 20)),
            ("h-corrupt.png", corruptPNG), ("i-corrupt.jpg", corruptJPEG),
            ("j-corrupt.heic", corruptHEIC), ("k-text.png", Data("just some notes\n".utf8)), ("z-good.jpg", jpeg),
        ]
        if let heic { files.append(("y-good.heic", heic)) }
        for (name, data) in files { try write(data, name, in: dir) }
        try? FileManager.default.removeItem(at: dir.appendingPathComponent("source.png"))
        let (r, lines) = try decode([""], in: dir)
        #expect(r.status == 0)
        #expect(lines.count == files.count, "one line a file")
        let byName = Dictionary(uniqueKeysWithValues: lines.map { (URL(fileURLWithPath: $0["file"] as? String ?? "").lastPathComponent, $0) })
        for (name, _) in files {
            let line = try #require(byName[name], "\(name) has its line")
            let texts = (line["codes"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
            if name.contains("good") {
                #expect(texts == [Self.payload] && line["error"] == nil, "\(name)")
            } else if name != "i-corrupt.jpg" {
                // A JPEG with damaged entropy data may still decode (libjpeg warns and fills in);
                // every other bad file is named as unreadable.
                #expect(line["error"] is String, "\(name): \(line)")
            }
        }
        let errorLines = r.stderr.split(separator: "\n").filter { !$0.contains("no code found") }
        #expect(errorLines.count == lines.filter { $0["error"] != nil }.count, "one stderr line per bad file:\n\(r.stderr)")
        #expect(!r.stderr.contains("Fatal error") && !r.stderr.contains("Stack dump"))
    }

    static let heicSignature: Data = {
        var bytes = [UInt8](repeating: 0, count: 64)
        bytes.replaceSubrange(4..<12, with: Array("ftypheic".utf8))
        return Data(bytes)
    }()

    /// `image` as a HEIC made by heif-enc (libheif-examples), or nil when it is not installed.
    static func heic(of image: GrayImage, in folder: URL) throws -> Data? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-enc") else { return nil }
        let png = folder.appendingPathComponent("source.png"), out = folder.appendingPathComponent("source.heic")
        try PNGCodec.encode(image).write(to: png)
        let encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
        encoder.arguments = ["-q", "90", "-o", out.path, png.path]
        encoder.standardOutput = FileHandle.nullDevice
        try encoder.run()
        encoder.waitUntilExit()
        try #require(encoder.terminationStatus == 0, "heif-enc failed")
        defer { try? FileManager.default.removeItem(at: out) }
        return try Data(contentsOf: out)
    }

    @Test func thousandsOfFilesInOneFolderAreEachOneLine() throws {
        let dir = try folder("many")
        defer { try? FileManager.default.removeItem(at: dir) }
        let code = try PNGCodec.encode(try QRSymbol(encoding: Self.payload).image(moduleSize: 3, margin: 4))
        let blank = try PNGCodec.encode(GrayImage(width: 24, height: 24, fill: 220))
        for i in 0..<2000 {
            let name = String(format: "%04d", i)
            if i % 250 == 0 {
                try write(code, "\(name).png", in: dir)
            } else if i % 100 == 7 {
                try write(Data("broken \(i)".utf8), "\(name).jpg", in: dir)
            } else {
                try write(blank, "\(name).png", in: dir)
            }
        }
        let (r, lines) = try decode([""], in: dir)
        #expect(r.status == 0)
        #expect(lines.count == 2000)
        #expect(Set(lines.compactMap { $0["file"] as? String }).count == 2000)
        #expect(lines.filter { ($0["codes"] as? [Any])?.isEmpty == false }.count == 8)
        #expect(lines.filter { $0["error"] != nil }.count == 20)
    }

    /// Root reads a mode-000 file regardless (CAP_DAC_OVERRIDE), so as root geoqr is run as
    /// `nobody` through setpriv (util-linux), with no capabilities left.
    @Test(.enabled(if: getuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "as root this needs setpriv to drop to an ordinary user"))
    func unreadableFilesAndFoldersAreReportedAndSkipped() throws {
        let dir = try folder("perm")
        defer {
            chmod(dir.appendingPathComponent("locked").path, 0o755)
            try? FileManager.default.removeItem(at: dir)
        }
        let png = try PNGCodec.encode(try QRSymbol(encoding: Self.payload).image(moduleSize: 4, margin: 4))
        try write(png, "a.png", in: dir)
        try write(png, "secret.png", in: dir)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("locked"), withIntermediateDirectories: false)
        try write(png, "locked/inside.png", in: dir)
        chmod(dir.path, 0o755)
        chmod(dir.appendingPathComponent("secret.png").path, 0)
        chmod(dir.appendingPathComponent("locked").path, 0)
        let r = try Self.runAsUser(["decode", "--json", dir.path])
        let lines = try GeoQRProcess.jsonLines(r)
        #expect(r.status == 0, "\(r.stderr)")
        let errors = lines.filter { $0["error"] != nil }.compactMap { $0["file"] as? String }
        #expect(errors.contains { $0.hasSuffix("secret.png") }, "\(lines)")
        #expect(errors.contains { $0.hasSuffix("locked") }, "\(lines)")
        #expect(lines.contains { ($0["file"] as? String)?.hasSuffix("a.png") == true && $0["error"] == nil })
        #expect(r.stderr.split(separator: "\n").count == errors.count, "one line per unreadable entry:\n\(r.stderr)")
    }

    /// geoqr with `arguments`, as this user, or as `nobody` (65534) when this is root.
    static func runAsUser(_ arguments: [String]) throws -> GeoQRProcess.Result {
        let process = Process()
        if getuid() == 0 {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--", GeoQRProcess.binary.path] + arguments
        } else {
            process.executableURL = GeoQRProcess.binary
            process.arguments = arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        return try GeoQRProcess.collect(process)
    }

    /// Peak resident memory of `geoqr ARGS`, from GNU time's %M (kilobytes).
    func peakKilobytes(_ arguments: [String]) throws -> (status: Int32, kilobytes: Int, stderr: String) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("geoqr-rss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", report.path, GeoQRProcess.binary.path] + arguments
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        try process.run()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = try String(contentsOf: report, encoding: .utf8)
        let kb = try #require(text.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) })
        return (process.terminationStatus, kb, String(decoding: errData, as: UTF8.self))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "needs GNU time (apt: time)"))
    func bombsAreRefusedFromTheirHeadersInBoundedMemory() throws {
        let dir = try folder("bombs")
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(try Self.pngBomb(width: 60000, height: 60000), "huge.png", in: dir)
        try write(try Self.jpegBomb(width: 60000, height: 60000), "huge.jpg", in: dir)
        // 40 megapixels: under the default cap of 50, over a cap of 30.
        try write(try Self.pngBomb(width: 8000, height: 5000), "big.png", in: dir)
        try write(try Self.jpegBomb(width: 8000, height: 5000), "big.jpg", in: dir)
        let files = ["huge.png", "huge.jpg", "big.png", "big.jpg"].map { dir.appendingPathComponent($0).path }

        let capped = try peakKilobytes(["decode", "--max-megapixels", "30"] + files)
        #expect(capped.status == 1)
        #expect(capped.stderr.split(separator: "\n").filter { $0.contains("megapixel") || $0.contains("pixels") }.count == 4,
                "each bomb named: \(capped.stderr)")
        #expect(capped.kilobytes < 512 * 1024, "peak RSS \(capped.kilobytes) kB with a 30 MP cap")

        let huge = try peakKilobytes(["decode"] + Array(files.prefix(2)))
        #expect(huge.status == 1)
        #expect(huge.kilobytes < 512 * 1024, "peak RSS \(huge.kilobytes) kB on 60000×60000 headers")
    }
}
