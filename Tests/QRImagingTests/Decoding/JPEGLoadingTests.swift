import Foundation
import Testing
@testable import QRImaging

@Suite struct JPEGLoadingTests {
    let code = TestPictures.canvas(TestPictures.code(moduleSize: 5), width: 300, height: 260, x: 40, y: 20)

    @Test("baseline and progressive grey JPEGs read", arguments: [false, true])
    func readsGrey(progressive: Bool) throws {
        let jpeg = try JPEGEncoder.encode(code, quality: 75, progressive: progressive)
        #expect(try JPEGDecoder.header([UInt8](jpeg)).progressive == progressive)
        let result = try PictureDecoder().decode(fileBytes: jpeg)
        #expect(result.picture.format == .jpeg)
        #expect(result.symbols.map(\.text) == [TestPictures.payload])
    }

    @Test("colour, CMYK and YCCK JPEGs become grey with dark modules dark", arguments: [
        JPEGEncoder.Layout.rgb, .cmyk, .ycck,
    ])
    func readsColour(layout: JPEGEncoder.Layout) throws {
        let pixels: [UInt8] = code.pixels.flatMap { v -> [UInt8] in
            switch layout {
            case .rgb: [v, v / 2 + 100, v]
            // Adobe CMYK is stored inverted (255 = no ink): black ink only, K = 255 - v.
            case .cmyk, .ycck: [255, 255, 255, v]
            case .gray: [v]
            }
        }
        let jpeg = try JPEGEncoder.encode(pixels: pixels, width: code.width, height: code.height, layout: layout,
                                          quality: 90, progressive: layout == .cmyk)
        let image = try Picture(data: jpeg).image()
        #expect(image[0, 0] > 185)   // the light canvas (200) stays light
        #expect(try PictureDecoder().decode(fileBytes: jpeg).symbols.map(\.text) == [TestPictures.payload])
    }

    @Test("DCT scaling decodes 1/2, 1/4 and 1/8 size", arguments: [2, 4, 8])
    func reducesInTheDCT(n: Int) throws {
        let big = TestPictures.canvas(TestPictures.code(moduleSize: 16), width: 1000, height: 800, x: 100, y: 50)
        let picture = try Picture(data: try JPEGEncoder.encode(big))
        let small = try picture.image(reduction: n)
        #expect(small.width == (1000 + n - 1) / n && small.height == (800 + n - 1) / n)
    }

    @Test("EXIF orientation turns the stored pixels upright; corners map back to them", arguments: [3, 6, 8, 2, 5, 7])
    func appliesOrientation(tag: Int) throws {
        let orientation = try #require(Orientation(rawValue: tag))
        // Store the picture as a camera would: the upright picture turned by the inverse.
        let upright = TestPictures.canvas(TestPictures.code(moduleSize: 5), width: 320, height: 240, x: 10, y: 20)
        var marked = upright
        for y in 0..<8 { for x in 0..<8 { marked[x, y] = 0 } }   // a mark at the upright top left
        let storedW = orientation.swapsAxes ? marked.height : marked.width
        let storedH = orientation.swapsAxes ? marked.width : marked.height
        var stored = GrayImage(width: storedW, height: storedH)
        for y in 0..<marked.height {
            for x in 0..<marked.width {
                let p = orientation.storedPoint(x: Double(x), y: Double(y), storedWidth: storedW, storedHeight: storedH)
                stored[Int(p.x), Int(p.y)] = marked[x, y]
            }
        }
        let jpeg = try JPEGEncoder.encode(stored, quality: 95, app1: Self.exif(orientation: tag, bigEndian: tag % 2 == 0))
        let result = try PictureDecoder().decode(fileBytes: jpeg)
        #expect(result.picture.orientation == orientation)
        #expect(result.image.width == 320 && result.image.height == 240)
        #expect(result.image[2, 2] < 60 && result.image[317, 237] > 150)
        let symbol = try #require(result.symbols.first)
        #expect(symbol.text == TestPictures.payload)
        // Corners in the file's pixels are where zbar finds them in the stored image.
        let direct = try #require(SymbolReader().read(stored).first)
        let mapped = result.storedCorners(of: symbol)
        for corner in direct.corners {
            #expect(mapped.contains { abs($0.x - corner.x) <= 2 && abs($0.y - corner.y) <= 2 })
        }
    }

    @Test func malformedEXIFIsIgnored() throws {
        let bad: [UInt8] = Array("Exif".utf8) + [0, 0, 0x49, 0x49, 42, 0, 0xFF, 0xFF, 0, 0]
        let jpeg = try JPEGEncoder.encode(code, app1: bad)
        #expect(try Picture(data: jpeg).orientation == .up)
    }

    @Test func corruptAndHugeJPEGsAreRefused() throws {
        let jpeg = [UInt8](try JPEGEncoder.encode(code))
        #expect(throws: PictureError.self) { try Picture(data: Data(jpeg.prefix(40))) }
        // Patch the frame header to claim 65000×65000: refused before any pixel memory.
        var huge = jpeg
        let sof = try #require((2..<huge.count - 9).first { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 })
        huge[sof + 5] = 0xFD; huge[sof + 6] = 0xE8; huge[sof + 7] = 0xFD; huge[sof + 8] = 0xE8
        #expect(throws: PictureError.tooManyPixels(width: 65000, height: 65000, limit: 50_000_000)) {
            try Picture(data: Data(huge))
        }
        // Cut inside the image data: libjpeg fills the rest grey and says so; never a crash.
        _ = try? PictureDecoder().decode(fileBytes: Data(jpeg.prefix(jpeg.count / 2)))
    }

    /// An `Exif\0\0` APP1 payload holding IFD0 with one Orientation entry.
    static func exif(orientation: Int, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        let tiff = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(8)
            + u16(1) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
        return Array("Exif".utf8) + [0, 0] + tiff
    }
}
