import Foundation
import Testing
@testable import QRImaging

/// Each pass earns its place: a picture zbar cannot read as it is, which the pass reads.
@Suite struct DecodePassTests {
    let placed = TestPictures.canvas(TestPictures.code(moduleSize: 6), width: 400, height: 400, x: 60, y: 60)

    func readers(of image: GrayImage) -> [DecodePass] {
        DecodePass.allCases.filter { !PictureDecoder(passes: [$0]).decode(image).isEmpty }
    }

    @Test func onlyInversionReadsLightOnDark() {
        let image = TestPictures.map(placed) { _, _, v in 255 - v }
        #expect(readers(of: image) == [.inverted])
        let found = PictureDecoder().decode(image)
        #expect(found.map(\.text) == [TestPictures.payload])
    }

    @Test func onlyHalvingReadsHeavyNoise() {
        var noise = TestPictures.Noise(state: 7)
        let image = TestPictures.map(placed) { x, _, v in 80 + v * 100 / 255 + x / 5 + noise.next(100) - 50 }
        #expect(readers(of: image) == [.halved])
    }

    @Test func binarisationReadsNoisySoftSmallCode() {
        // Three-pixel modules, softened and noisy: as it is zbar sees nothing.
        let small = TestPictures.canvas(TestPictures.code(moduleSize: 3), width: 240, height: 240, x: 30, y: 30)
        var noise = TestPictures.Noise(state: 3)
        let image = TestPictures.map(TestPictures.blurred(small, r: 1, times: 1)) { _, _, v in v + noise.next(40) - 20 }
        let by = readers(of: image)
        #expect(!by.contains(.full) && !by.contains(.stretched))
        #expect(by.contains(.binarized))
    }

    @Test func enlargingReadsSoftSmallCode() {
        let small = TestPictures.canvas(TestPictures.code(moduleSize: 3), width: 240, height: 240, x: 30, y: 30)
        let image = TestPictures.blurred(small, r: 1, times: 1)
        let by = readers(of: image)
        #expect(!by.contains(.full) && !by.contains(.halved) && !by.contains(.stretched))
        #expect(by.contains(.enlarged))
        // Corners come back in the original pixels, not the ×2 copy.
        let found = PictureDecoder(passes: [.enlarged]).decode(image)
        #expect(found.first?.corners.allSatisfy { $0.x < 240 && $0.y < 240 } == true)
    }

    /// A phone-size photo of a light-on-dark code is read on the reduced copy: the full-size
    /// picture is never decoded, and the corners still come back in its pixels.
    @Test func reducedCopyReadsLightOnDarkPhoto() throws {
        let code = TestPictures.map(TestPictures.code(moduleSize: 16)) { _, _, v in 255 - v }
        let photo = TestPictures.canvas(code, width: 1600, height: 1200, x: 500, y: 300, fill: 90)
        let result = try PictureDecoder().decode(fileBytes: JPEGEncoder.encode(photo, quality: 90))
        #expect(result.symbols.map(\.text) == [TestPictures.payload])
        #expect(result.passes == [.reducedInverted])
        #expect(result.image.width < photo.width)
        let corners = try #require(result.symbols.first?.corners)
        #expect(corners.allSatisfy { (480...(520 + code.width)).contains($0.x) && (280...(320 + code.height)).contains($0.y) })
    }

    /// A faint code (30 grey levels) under heavy noise and a gradient of light, on a
    /// phone-size picture: only the reduced copy, binarised locally, reads it (averaging
    /// four pixels into one halves the noise; full size, binarisation keeps the speckle).
    @Test func reducedCopyBinarisedReadsFaintNoisyCode() {
        let code = TestPictures.code(moduleSize: 14)
        var noise = TestPictures.Noise(state: 11)
        let photo = TestPictures.map(TestPictures.canvas(code, width: 1600, height: 1200, x: 450, y: 250)) { x, _, v in
            110 + v * 30 / 255 + x * 60 / 1600 + noise.next(40) - 20
        }
        #expect(readers(of: photo) == [.reducedBinarized])
        #expect(PictureDecoder().decode(photo).map(\.text) == [TestPictures.payload])
    }

    @Test func findAllKeepsGoingAndDeduplicates() {
        let a = TestPictures.code("GQ1.DEMO.A1.AAAAAAAAAAAAAAAA", moduleSize: 4)
        let b = TestPictures.map(TestPictures.code("GQ1.DEMO.B2.BBBBBBBBBBBBBBBB", moduleSize: 4)) { _, _, v in 255 - v }
        var image = TestPictures.canvas(a, width: 500, height: 260, x: 10, y: 10)
        for y in 0..<b.height { for x in 0..<b.width { image[x + 260, y + 10] = b[x, y] } }
        #expect(PictureDecoder().decode(image).count == 1)
        let all = PictureDecoder(findAll: true).decode(image)
        #expect(Set(all.map(\.text)) == ["GQ1.DEMO.A1.AAAAAAAAAAAAAAAA", "GQ1.DEMO.B2.BBBBBBBBBBBBBBBB"])
    }

    @Test func rotationMapsCornersBack() {
        let (turned, back) = placed.rotated(degrees: 45)
        let symbol = SymbolReader().read(turned).first!.mapped(back)
        let direct = SymbolReader().read(placed).first!
        for corner in direct.corners {
            #expect(symbol.corners.contains { abs($0.x - corner.x) <= 3 && abs($0.y - corner.y) <= 3 })
        }
    }

    /// The fuzz finding `Fuzz/findings/slow-jpeg-63512x240.jpg`: a strip would turn into a
    /// 2-gigapixel square. Photos of any usual shape are still turned.
    @Test func rotationSkipsLongThinStrips() {
        #expect(DecodePass.rotated.render(GrayImage(width: 63_512, height: 240)) == nil)
        #expect(DecodePass.rotated.render(GrayImage(width: 2_000, height: 100)) == nil)
        #expect(DecodePass.rotated.render(GrayImage(width: 400, height: 300)) != nil)
        #expect(DecodePass.rotated.render(GrayImage(width: 320, height: 180)) != nil)   // 16:9
    }

    @Test func theFuzzersSlowJPEGDecodesInBoundedWork() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Fuzz/findings/slow-jpeg-63512x240.jpg").standardized
        let bytes = try Data(contentsOf: file)
        let picture = try Picture(data: bytes)
        let base = try picture.image()
        #expect(base.width == 63_512 && base.height == 240)
        for pass in DecodePass.standard {
            if let (image, _) = pass.render(base) {
                #expect(image.width * image.height <= 3 * 63_512 * 240, "\(pass) makes \(image.width)×\(image.height)")
            }
        }
    }
}

/// A big poster code beside a small cache code: the reduced copy reads only the poster, so a
/// search for any code stops there, and a search for the sought code goes on to full size.
@Suite struct SoughtCodeTests {
    @Test func aSearchGoesOnPastPassesThatFoundOnlyOtherCodes() {
        let poster = TestPictures.code("HTTPS://EXAMPLE.ORG/CAFE-MENU", moduleSize: 28)
        var image = TestPictures.canvas(poster, width: 1600, height: 1200, x: 40, y: 40)
        let cache = TestPictures.code(moduleSize: 3)
        for y in 0..<cache.height { for x in 0..<cache.width { image[x + 1350, y + 950] = cache[x, y] } }
        #expect(PictureDecoder(passes: [.reduced]).decode(image).map(\.text) == ["HTTPS://EXAMPLE.ORG/CAFE-MENU"],
                "the reduced copy reads only the poster")
        #expect(PictureDecoder().decode(image).map(\.text) == ["HTTPS://EXAMPLE.ORG/CAFE-MENU"], "any code ends the search")
        let sought = PictureDecoder(sought: { $0.hasPrefix("GQ1.") }).decode(image).map(\.text)
        #expect(Set(sought) == ["HTTPS://EXAMPLE.ORG/CAFE-MENU", TestPictures.payload])
    }
}
