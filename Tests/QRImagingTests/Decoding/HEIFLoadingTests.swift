import Foundation
import Testing
@testable import QRImaging

/// HEIC fixtures are made at run time with heif-enc (Debian's libheif-examples, x265 inside).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/heif-enc"), "needs heif-enc (libheif-examples)"))
struct HEIFLoadingTests {
    /// `picture` (a PNG or JPEG file's bytes, `name` saying which) coded as HEIC by heif-enc.
    func codedAsHEIC(_ picture: Data, named name: String, quality: Int) throws -> Data {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("geoqr-heic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent(name), heic = folder.appendingPathComponent("code.heic")
        try picture.write(to: source)
        let encoder = Process()
        encoder.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
        encoder.arguments = ["-q", "\(quality)", "-o", heic.path, source.path]
        encoder.standardOutput = FileHandle.nullDevice
        try encoder.run()
        encoder.waitUntilExit()
        try #require(encoder.terminationStatus == 0)
        return try Data(contentsOf: heic)
    }

    @Test func readsHEIC() throws {
        let code = TestPictures.canvas(TestPictures.code(moduleSize: 6), width: 320, height: 280, x: 30, y: 20)
        let heic = try codedAsHEIC(try PNGCodec.encode(code), named: "code.png", quality: 80)
        let result = try PictureDecoder().decode(fileBytes: heic)
        #expect(result.picture.format == .heic)
        #expect(result.picture.width == 320 && result.picture.height == 280)
        #expect(result.symbols.map(\.text) == [TestPictures.payload])
    }

    /// heif-enc codes a colour JPEG as RGB, which libheif hands back as R, G and B planes, not
    /// luma: the decoder has libheif convert it instead of giving up. The JPEG's EXIF goes
    /// into the HEIC's Exif item, and the picture hands it out.
    @Test func readsHEICCodedAsRGBAndKeepsItsEXIF() throws {
        let code = TestPictures.canvas(TestPictures.code(moduleSize: 5), width: 300, height: 260, x: 40, y: 30)
        let rgb = code.pixels.flatMap { v in [v, UInt8(clamping: Int(v) - 8), UInt8(clamping: Int(v) - 20)] }
        // A camera's EXIF: an empty big-endian TIFF directory, which heif-enc copies into an Exif item.
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0]
        let jpeg = try JPEGEncoder.encode(pixels: rgb, width: code.width, height: code.height, layout: .rgb,
                                          app1: Array("Exif".utf8) + [0, 0] + tiff)
        let heic = try codedAsHEIC(jpeg, named: "code.jpg", quality: 85)
        let result = try PictureDecoder().decode(fileBytes: heic)
        #expect(result.symbols.map(\.text) == [TestPictures.payload])
        // libheif's form: a big-endian offset past itself to the TIFF header, then the block.
        let block = try #require(result.picture.heifExifBlock)
        let skip = block.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        #expect(Array(block.dropFirst(4 + skip).prefix(tiff.count)) == tiff, "\(block)")
    }

    @Test func corruptHEICIsNamed() {
        var bytes = [UInt8](repeating: 0, count: 64)
        bytes.replaceSubrange(4..<12, with: Array("ftypheic".utf8))
        #expect(throws: PictureError.self) { try Picture(data: Data(bytes)) }
    }
}
