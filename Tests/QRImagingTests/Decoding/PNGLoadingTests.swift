import Foundation
import Testing
@testable import QRImaging

/// Every PNG variant in Fixtures/png (made by Fixtures/make_png_fixtures.py) holds the same code.
@Suite struct PNGLoadingTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/png")

    @Test("every colour type, bit depth, palette, alpha and interlacing reads", arguments: [
        "gray1.png", "gray2.png", "gray16.png", "palette1.png", "palette8-alpha.png", "gray-alpha8.png",
        "rgb8.png", "rgba16.png", "rgb8-interlaced.png", "gray1-interlaced.png",
    ])
    func readsVariant(name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent(name))
        let result = try PictureDecoder().decode(fileBytes: data)
        #expect(result.picture.format == .png)
        #expect(result.symbols.map(\.text) == [TestPictures.payload])
    }

    @Test func transparentBackgroundBecomesWhite() throws {
        // zbarimg composites this one onto black and reads nothing.
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("gray-alpha8.png"))
        let image = try Picture(data: data).image()
        #expect(image[0, 0] == 255)
    }

    @Test func bombIsRefusedFromItsHeader() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("bomb.png"))
        #expect(throws: PictureError.tooManyPixels(width: 60000, height: 60000, limit: 50_000_000)) {
            try Picture(data: data)
        }
    }

    @Test func notPicturesAreNamed() {
        #expect(throws: PictureError.empty) { try Picture(data: Data()) }
        #expect(throws: PictureError.unknownFormat) { try Picture(data: Data("hello, not a png\n".utf8)) }
        var truncated = try! PNGCodec.encode(TestPictures.code())
        truncated.count = 60
        #expect(throws: PictureError.self) { try PictureDecoder().decode(fileBytes: truncated) }
        #expect(throws: PictureError.tooLarge(bytes: 2_000_001, limit: 2_000_000)) {
            try Picture(data: Data(count: 2_000_001), limits: PictureLimits(maxFileBytes: 2_000_000))
        }
    }
}
