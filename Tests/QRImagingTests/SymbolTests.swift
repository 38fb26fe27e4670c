import Foundation
import GeoQR
import Testing
@testable import QRImaging

@Suite struct SymbolTests {
    let secret = HuntSecret(bytes: [UInt8](repeating: 42, count: 32))!

    @Test("a drawn symbol reads back through zbar", arguments: CorrectionLevel.allCases)
    func roundTripsThroughZBar(level: CorrectionLevel) throws {
        let payload = CacheCode.payload(hunt: "DEMO", cache: "A1", secret: secret)
        let symbol = try QRSymbol(encoding: payload, level: level)
        let found = SymbolReader().read(symbol.image(moduleSize: 4, margin: 4))
        #expect(found.map(\.text) == [payload])
        #expect(found.first?.symbology == "QR-Code")
        #expect(found.first?.corners.count == 4)
    }

    @Test func codesFitSmallSymbols() throws {
        let longest = CacheCode.payload(hunt: String(repeating: "H", count: 16), cache: String(repeating: "C", count: 12), secret: secret)
        #expect(try QRSymbol(encoding: longest, level: .M).version <= 3)
        let url = CacheCode.payload(hunt: "DEMO", cache: "A1", secret: secret, baseURL: "https://192.168.100.200:8443")
        #expect(try QRSymbol(encoding: url, level: .M).version <= 4)
        // The same text in lower case cannot use alphanumeric mode and needs a bigger symbol.
        #expect(try QRSymbol(encoding: url.lowercased(), level: .M).version > QRSymbol(encoding: url, level: .M).version)
    }

    @Test func refusesWhatNoQRCanHold() {
        #expect(throws: QREncodingError.tooLong(characters: 8000)) {
            try QRSymbol(encoding: String(repeating: "x", count: 8000), level: .H)
        }
    }

    @Test func imageHasQuietZoneAndModuleSize() throws {
        let symbol = try QRSymbol(encoding: "HELLO", level: .L)
        let image = symbol.image(moduleSize: 3, margin: 2)
        #expect(image.width == (symbol.width + 4) * 3)
        #expect(image[0, 0] == 255)                    // quiet zone
        #expect(image[6, 6] == 0 && image[8, 8] == 0)  // finder pattern corner, all 3×3 pixels
        #expect(image[5, 5] == 255)
    }

    @Test func svgDrawsEveryDarkModule() throws {
        let symbol = try QRSymbol(encoding: "GQ1.DEMO.A1.AAAAAAAAAAAAAAAA", level: .M)
        let svg = symbol.svg(moduleSize: 10, margin: 4)
        #expect(svg.contains(#"viewBox="0 0 \#(symbol.width + 8) \#(symbol.width + 8)""#))
        // Sum of run lengths in the path equals the number of dark modules.
        let runs = svg.matches(of: /h(\d+)v1/).map { Int($0.1)! }
        #expect(runs.reduce(0, +) == symbol.modules.filter { $0 }.count)
    }

    @Test func terminalTextUsesTwoRowsALine() throws {
        let symbol = try QRSymbol(encoding: "HELLO", level: .L)
        let lines = symbol.terminalText(margin: 2).split(separator: "\n")
        #expect(lines.count == (symbol.width + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == symbol.width + 4 })
        #expect(lines[0].allSatisfy { $0 == "█" })     // the quiet zone is light
    }
}

@Suite struct PNGCodecTests {
    @Test func bilevelPNGRoundTripsAndIsSmall() throws {
        let image = try QRSymbol(encoding: "GQ1.DEMO.A1.AAAAAAAAAAAAAAAA", level: .M).image(moduleSize: 3, margin: 4)
        let png = try PNGCodec.encode(image, bilevel: true)
        #expect(png.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(png[24] == 1, "bit depth 1 in IHDR")
        #expect(try PNGCodec.decode(png) == image)
    }

    @Test func greyPNGRoundTrips() throws {
        let image = GrayImage(width: 7, height: 5, pixels: (0..<35).map { UInt8($0 * 7) })
        #expect(try PNGCodec.decode(try PNGCodec.encode(image)) == image)
    }

    @Test func refusesGarbageAndHugeHeaders() throws {
        #expect(throws: PNGError.self) { try PNGCodec.decode(Data("not a png".utf8)) }
        let png = try PNGCodec.encode(GrayImage(width: 100, height: 100))
        #expect(throws: PNGError.tooManyPixels(width: 100, height: 100, limit: 9_999)) {
            try PNGCodec.decode(png, pixelLimit: 9_999)
        }
        #expect(throws: PNGError.self) { try PNGCodec.decode(png.prefix(png.count / 2)) }
    }
}
