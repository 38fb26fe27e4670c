import Foundation
import Testing
@testable import QRImaging

/// HEIC fixtures are made at run time with heif-enc (Debian's libheif-examples, x265 inside).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-enc"), "needs heif-enc (libheif-examples)"))
struct HEIFLoadingTests {
    @Test func readsHEIC() throws {
        let code = TestPictures.canvas(TestPictures.code(moduleSize: 6), width: 320, height: 280, x: 30, y: 20)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoqr-heic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = folder.appendingPathComponent("code.png"), heic = folder.appendingPathComponent("code.heic")
        try PNGCodec.encode(code).write(to: png)
        let encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
        encoder.arguments = ["-q", "80", "-o", heic.path, png.path]
        encoder.standardOutput = FileHandle.nullDevice
        try encoder.run()
        encoder.waitUntilExit()
        try #require(encoder.terminationStatus == 0)
        let result = try PictureDecoder().decode(fileBytes: try Data(contentsOf: heic))
        #expect(result.picture.format == .heic)
        #expect(result.picture.width == 320 && result.picture.height == 280)
        #expect(result.symbols.map(\.text) == [TestPictures.payload])
    }

    @Test func corruptHEICIsNamed() {
        var bytes = [UInt8](repeating: 0, count: 64)
        bytes.replaceSubrange(4..<12, with: Array("ftypheic".utf8))
        #expect(throws: PictureError.self) { try Picture(data: Data(bytes)) }
    }
}
