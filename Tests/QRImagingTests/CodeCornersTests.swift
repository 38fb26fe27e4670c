import Testing
@testable import QRImaging

/// The camera gate (issue 27): texture is full of finder-like runs, but not of three finder
/// patterns placed as a code's corners; a code in the same texture still opens the gate.
@Suite struct CodeCornersTests {
    /// Gravel or sensor noise: random tones in cells of `cell` pixels, softened as a camera does.
    static func texture(cell: Int, seed: UInt64) -> GrayImage {
        var rng = SeededRandom(seed: seed)
        let width = 640, height = 480
        let cells = (0..<((width / cell + 1) * (height / cell + 1))).map { _ in UInt8(40 + rng.next(180)) }
        var image = GrayImage(width: width, height: height, fill: 0)
        for y in 0..<height {
            for x in 0..<width { image[x, y] = cells[(y / cell) * (width / cell + 1) + x / cell] }
        }
        return image.boxBlurred()
    }

    /// What the frame decoder's gate looks at: the frame stretched and binarised locally.
    static func binary(_ frame: GrayImage) -> GrayImage {
        let stretched = frame.stretched()
        return stretched.binarized(window: stretched.adaptiveWindow)
    }

    /// A code with 3-pixel modules pasted into `frame` at (left, top), as printed dark on light.
    static func withCode(_ frame: GrayImage, _ text: String, left: Int = 250, top: Int = 150) throws -> GrayImage {
        let code = try QRSymbol(encoding: text).image(moduleSize: 3, margin: 4)
        var out = frame
        for y in 0..<code.height { for x in 0..<code.width { out[left + x, top + y] = code[x, y] < 128 ? 40 : 225 } }
        return out.boxBlurred()
    }

    /// Rows' windows of five runs in the finder proportions: what the old gate counted from.
    static func finderLikeRuns(_ image: GrayImage) -> Int {
        var count = 0
        for y in 0..<image.height {
            var runs: [Int] = [], x = 0
            while x < image.width {
                let dark = image[x, y] < 128
                var n = 0
                while x < image.width, (image[x, y] < 128) == dark { x += 1; n += 1 }
                runs.append(n)
                if runs.count >= 5, GrayImage.looksLikeFinder(runs[runs.count - 5], runs[runs.count - 4], runs[runs.count - 3],
                                                              runs[runs.count - 2], runs[runs.count - 1]) { count += 1 }
            }
        }
        return count
    }

    @Test("texture holds many finder-like runs but no dark code's corners", arguments: [2, 3, 5])
    func texture(cell: Int) {
        let binary = Self.binary(Self.texture(cell: cell, seed: UInt64(27 + cell)))
        #expect(Self.finderLikeRuns(binary) > 500)
        // Light-centred places have no timing test, and some of these textures place three.
        #expect(!binary.codeCorners().dark)
    }

    @Test("a code in the same texture opens the gate, and is read", arguments: [2, 3, 5])
    func codeInTexture(cell: Int) throws {
        let text = "HTTPS://HUNT.EXAMPLE/C/DEMO/B7/K2M9QX4T"
        let frame = try Self.withCode(Self.texture(cell: cell, seed: UInt64(27 + cell)), text)
        #expect(Self.binary(frame).codeCorners().dark)
        #expect(Self.binary(frame.stretched().inverted()).codeCorners().light)
        #expect(FrameDecoder().decode(frame).map(\.text) == [text])
    }

    @Test func cornersOfACode() {
        func at(_ x: Int, _ y: Int, size: Int = 35) -> FinderPattern { FinderPattern(x: x, y: y, size: size, dark: true) }
        // A version 2 code, 5 px modules: corners 18 modules apart; in any order, turned 30°.
        #expect(CodeCorners.fit(at(100, 100), at(190, 100), at(100, 190)))
        #expect(CodeCorners.fit(at(190, 100), at(100, 190), at(100, 100)))
        #expect(CodeCorners.fit(at(100, 100), at(178, 145), at(55, 178)))
        // In a line; too close for a code of that module size; sizes too far apart; mixed tones.
        #expect(!CodeCorners.fit(at(100, 100), at(190, 100), at(280, 100)))
        #expect(!CodeCorners.fit(at(100, 100), at(130, 100), at(100, 130)))
        #expect(!CodeCorners.fit(at(100, 100), at(190, 100, size: 12), at(100, 190)))
        var light = at(100, 190)
        light.dark = false
        #expect(!CodeCorners.fit(at(100, 100), at(190, 100), light))
    }
}
