import Foundation
import Testing
@testable import QRImaging

/// What a picture may cost (issue 24 §1): a 50 MP JPEG is read at a reduced scale, a PNG
/// larger than any phone makes is refused from its header, a JPEG of too many scans is refused
/// while it is read.
@Suite struct PictureCostTests {
    /// The bomb of the issue: 7071 × 7071 white pixels, about 50 MP, in a PNG of a few dozen KB.
    @Test func aPNGBombIsRefusedFromItsHeader() throws {
        let bomb = try PNGCodec.encode(GrayImage(width: 7071, height: 7071), bilevel: true)
        #expect(bomb.count < 100_000)
        #expect(PNGCodec.declaredSize(bomb)! == (7071, 7071))
        #expect(throws: PictureError.tooCostly(format: .png, width: 7071, height: 7071, limit: 12_000_000)) {
            try Picture(data: bomb)
        }
        #expect(PictureError.tooCostly(format: .png, width: 7071, height: 7071, limit: 12_000_000).description
            .contains("7071×7071 (49 megapixels) is more than the 12-megapixel limit for PNG"))
        // Refused before decoding: PictureDecoder throws the same, with no pass run.
        #expect(throws: PictureError.tooCostly(format: .png, width: 7071, height: 7071, limit: 12_000_000)) {
            try PictureDecoder().decode(fileBytes: bomb)
        }
    }

    @Test func aPNGAsLargeAsAScreenshotIsRead() throws {
        let screenshot = TestPictures.canvas(TestPictures.code(moduleSize: 8), width: 1440, height: 3200, x: 300, y: 1200)
        let result = try PictureDecoder().decode(fileBytes: try PNGCodec.encode(screenshot))
        #expect(result.picture.scale == 1)
        #expect(result.symbols.map(\.text) == [TestPictures.payload])
    }

    /// A 50 MP phone photo (8160 × 6120, as the Pixel and Galaxy 50 MP modes write) is decoded
    /// at half size in the DCT, and its code is still read, with corners in the file's pixels.
    @Test func aFiftyMegapixelJPEGIsReadAtHalfScale() throws {
        let photo = TestPictures.canvas(TestPictures.code(moduleSize: 24), width: 8160, height: 6120, x: 3000, y: 2000)
        let jpeg = try JPEGEncoder.encode(photo, quality: 80)
        let picture = try Picture(data: jpeg)
        #expect(picture.storedWidth == 8160 && picture.storedHeight == 6120)
        #expect(picture.scale == 2)
        #expect(picture.width == 4080 && picture.height == 3060)
        let image = try picture.image()
        #expect(image.width == 4080 && image.height == 3060)
        let result = try FrameDecoder().decode(fileBytes: jpeg)
        #expect(result.map(\.text) == [TestPictures.payload])
        let stored = picture.storedPoint(x: 2000, y: 1500)
        #expect(stored.x == 4000 && stored.y == 3000)
    }

    /// A progressive JPEG whose last scan is repeated: libjpeg takes each repeat (it only warns
    /// of a bogus progression) and passes over every block of the image for each.
    @Test func aJPEGOfTooManyScansIsRefused() throws {
        let image = TestPictures.canvas(TestPictures.code(moduleSize: 5), width: 400, height: 300, x: 40, y: 20)
        let jpeg = [UInt8](try JPEGEncoder.encode(image, quality: 75, progressive: true))
        let scans = Self.scanCount(jpeg)
        #expect(scans > 1 && scans < 20)
        #expect(try JPEGDecoder.decode(jpeg).width == 400)

        let many = Self.repeatingLastScan(jpeg, times: 150)
        #expect(Self.scanCount(many) > PictureLimits().maxJPEGScans)
        #expect(throws: PictureError.unreadable(format: .jpeg, reason: "progressive JPEG of more than 100 scans")) {
            try Picture(data: Data(many)).image()
        }
        // Within a higher limit the same file decodes: the limit, not the file, refused it.
        let loose = PictureLimits(maxJPEGScans: 1000)
        #expect(try Picture(data: Data(many), limits: loose).image().width == 400)
    }

    /// Start-of-scan markers (FF DA) in a JPEG; entropy-coded data stuffs FF as FF 00, so a
    /// marker byte pair is never data.
    static func scanCount(_ jpeg: [UInt8]) -> Int {
        zip(jpeg, jpeg.dropFirst()).filter { $0 == 0xFF && $1 == 0xDA }.count
    }

    /// The file with its last scan (from its FF DA to the EOI) written `times` more times.
    static func repeatingLastScan(_ jpeg: [UInt8], times: Int) -> [UInt8] {
        let lastScan = (0..<(jpeg.count - 1)).last { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA }!
        let end = jpeg.count - 2   // FF D9
        let scan = jpeg[lastScan..<end]
        return Array(jpeg[..<end]) + Array(repeating: scan, count: times).flatMap { $0 } + [0xFF, 0xD9]
    }
}
