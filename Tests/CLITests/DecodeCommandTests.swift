import Foundation
import Testing
import QRImaging

/// `geoqr decode` run as a user runs it: the built binary, real files, exit codes and output.
@Suite struct DecodeCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binary = GeoQRProcess.binary.path
    static let payload = "GQ1.DEMO.A1.7QK2M4TZ9XB3RW5N"

    struct Run { let status: Int32; let out: String; let err: String }

    func geoqr(_ arguments: [String], in folder: URL) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    /// A folder with a code PNG, a code JPEG in a subfolder, a blank PNG and a text file named .png.
    func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoqr-decode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("photos/day2"), withIntermediateDirectories: true)
        let code = try QRSymbol(encoding: Self.payload).image(moduleSize: 4, margin: 4)
        try PNGCodec.encode(code).write(to: folder.appendingPathComponent("photos/a.png"))
        try JPEGEncoder.encode(code).write(to: folder.appendingPathComponent("photos/day2/b.jpg"))
        try PNGCodec.encode(GrayImage(width: 50, height: 50)).write(to: folder.appendingPathComponent("blank.png"))
        try Data("not an image\n".utf8).write(to: folder.appendingPathComponent("photos/broken.png"))
        try Data("notes\n".utf8).write(to: folder.appendingPathComponent("photos/notes.txt"))
        return folder
    }

    @Test func printsFileAndTextAndExitsZero() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try geoqr(["decode", "photos/a.png"], in: folder)
        #expect(run.status == 0)
        #expect(run.out == "photos/a.png: \(Self.payload)\n")
    }

    @Test func exitsOneWhenNoCode() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try geoqr(["decode", "blank.png"], in: folder)
        #expect(run.status == 1)
        #expect(run.out.isEmpty)
    }

    @Test("usage errors exit 2", arguments: [["decode"], ["decode", "--symbologies", "qr,nope", "x.png"], ["decode", "--frobnicate", "x.png"],
                                           ["decode", "--passes", "full,sideways", "x.png"]])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let run = try geoqr(arguments, in: FileManager.default.temporaryDirectory)
        #expect(run.status == 2)
        #expect(run.err.contains("Usage: geoqr decode"))
    }

    /// `--passes` runs only the passes named, in that order; the JSON says which read the code.
    @Test func passesChoosesWhichPassesRunAndInWhatOrder() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let turned = try geoqr(["decode", "--json", "--passes", "rotated,full", "photos/a.png"], in: folder)
        #expect(turned.status == 0)
        let line = try JSONSerialization.jsonObject(with: Data(turned.out.utf8)) as? [String: Any]
        #expect((line?["codes"] as? [[String: Any]])?.first?["pass"] as? String == "rotated")
        let inverted = try geoqr(["decode", "--passes", "inverted", "photos/a.png"], in: folder)
        #expect(inverted.status == 1, "a dark-on-light code is not read by inversion alone")
    }

    @Test func walksFoldersInOrderReportsAndSkipsUnreadable() throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try geoqr(["decode", "--json", "photos", "missing.jpg"], in: folder)
        #expect(run.status == 0)
        let lines = run.out.split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        }
        // Sorted walk, subfolders included, notes.txt not an image, then the missing argument.
        #expect(lines.map { $0["file"] as? String } == ["photos/a.png", "photos/broken.png", "photos/day2/b.jpg", "missing.jpg"])
        let codes = lines[0]["codes"] as? [[String: Any]] ?? []
        #expect(codes.count == 1)
        #expect(codes.first?["text"] as? String == Self.payload)
        #expect(codes.first?["raw"] as? String == Data(Self.payload.utf8).base64EncodedString())
        let corners = codes.first?["corners"] as? [[Int]] ?? []
        #expect(corners.count == 4 && corners.allSatisfy { $0.count == 2 })
        #expect(lines[0]["error"] == nil)
        #expect((lines[1]["error"] as? String)?.contains("not a PNG, JPEG or HEIC") == true)
        #expect((lines[1]["codes"] as? [Any])?.isEmpty == true)
        #expect(((lines[2]["codes"] as? [[String: Any]])?.first?["text"] as? String) == Self.payload)
        #expect(lines[3]["error"] as? String == "no such file or folder")
        #expect(run.err.contains("photos/broken.png: not a PNG, JPEG or HEIC image"))
        #expect(run.err.contains("missing.jpg: no such file or folder"))
    }
}
