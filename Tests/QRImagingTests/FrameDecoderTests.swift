import Foundation
import Testing
@testable import QRImaging

/// A phone walking up to a printed code: 640×480 grey frames of a scene (pavement, leaves,
/// a bench) with a code in it that grows from a blur of half-pixel modules to a readable size,
/// a little turned, softened and noisy, as a camera sends them. Deterministic (a fixed seed).
struct ApproachClip {
    enum Print { case plain, shadowed, lightOnDark }

    static let width = 640, height = 480

    let frames: [GrayImage]

    /// `looking` frames of the scene alone (the phone not yet pointed at the code), then
    /// `count` frames with the code's modules growing linearly from `from` to `to` pixels.
    init(code: QRSymbol, print: Print, looking: Int = 10, count: Int = 40, from: Double = 0.6, to: Double = 3.2) {
        var rng = SeededRandom(seed: 16)
        let scene = Self.scene(&rng)
        let side = code.width + 8   // four quiet modules each side
        let looking = (0..<looking).map { _ in Self.noisy(scene.boxBlurred(), &rng) }
        frames = looking + (0..<count).map { i in
            let module = from + (to - from) * Double(i) / Double(count - 1)
            var frame = scene
            let angle = 7.0 * Double.pi / 180, c = cos(angle), s = sin(angle)
            let cx = 330.0, cy = 220.0, half = Double(side) * module / 2
            let reach = Int(half * 1.5) + 2
            for y in max(0, Int(cy) - reach)..<min(Self.height, Int(cy) + reach) {
                for x in max(0, Int(cx) - reach)..<min(Self.width, Int(cx) + reach) {
                    // Four samples a pixel: a camera's pixel averages what falls on it.
                    var ink = 0.0, inside = 0
                    for (dx, dy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                        let px = Double(x) + dx - cx, py = Double(y) + dy - cy
                        let u = (px * c + py * s) / module + Double(side) / 2
                        let v = (-px * s + py * c) / module + Double(side) / 2
                        guard u >= 0, v >= 0, u < Double(side), v < Double(side) else { continue }
                        inside += 1
                        let mx = Int(u) - 4, my = Int(v) - 4
                        let dark = mx >= 0 && my >= 0 && mx < code.width && my < code.width && code[mx, my]
                        ink += dark ? 1 : 0
                    }
                    guard inside > 0 else { continue }
                    let paper = Double(inside) / 4, darkShare = ink / 4
                    var (light, dark) = (228.0, 38.0)
                    switch print {
                    case .plain: break
                    case .shadowed:
                        // A hard shadow over the left part, and glare to the right: no one
                        // threshold fits both halves.
                        (light, dark) = Double(x) < cx - half / 3 ? (160, 60) : (250, 150)
                    case .lightOnDark: (light, dark) = (dark, light)
                    }
                    let tone = light * (paper - darkShare) + dark * darkShare + Double(frame[x, y]) * (1 - paper)
                    frame[x, y] = UInt8(clamping: Int(tone.rounded()))
                }
            }
            return Self.noisy(frame.boxBlurred(), &rng)
        }
    }

    /// A Y4M stream of the clip, read back as a camera source gives it.
    func readBack() throws -> [GrayImage] {
        let file = try StreamFile(y4mStream(width: Self.width, height: Self.height, frames: frames))
        var reader = try Y4MReader(fileDescriptor: file.fd)
        var read: [GrayImage] = []
        while let frame = try reader.nextFrame() { read.append(frame.image) }
        return read
    }

    private static func scene(_ rng: inout SeededRandom) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: 0)
        for y in 0..<height {
            let sky = y < 250 ? 170 + y / 10 : 112
            for x in 0..<width { image[x, y] = UInt8(sky) }
        }
        func box(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int, _ tone: UInt8, outline: UInt8?) {
            for y in max(0, y0)..<min(height, y0 + h) {
                for x in max(0, x0)..<min(width, x0 + w) {
                    let edge = x == x0 || y == y0 || x == x0 + w - 1 || y == y0 + h - 1
                    image[x, y] = edge ? (outline ?? tone) : tone
                }
            }
        }
        for _ in 0..<400 {   // bricks
            box(rng.next(640), 250 + rng.next(230), 8 + rng.next(32), 4 + rng.next(12), UInt8(70 + rng.next(100)), outline: 45)
        }
        for _ in 0..<120 {   // leaves
            let r = 3 + rng.next(11)
            box(rng.next(640) - r, rng.next(250) - r, 2 * r, 2 * r, UInt8(60 + rng.next(70)), outline: nil)
        }
        box(80, 300, 480, 30, 62, outline: nil)   // a bench
        box(100, 330, 20, 90, 42, outline: nil)
        box(520, 330, 20, 90, 42, outline: nil)
        return image
    }

    private static func noisy(_ image: GrayImage, _ rng: inout SeededRandom) -> GrayImage {
        var out = image
        for i in out.pixels.indices { out.pixels[i] = UInt8(clamping: Int(out.pixels[i]) + rng.next(13) - 6) }
        return out
    }
}

/// xorshift64*: the same clip on every machine.
struct SeededRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E37_79B9_7F4A_7C15 | 1 }
    mutating func next(_ bound: Int) -> Int {
        state ^= state >> 12; state ^= state << 25; state ^= state >> 27
        return Int((state &* 0x2545_F491_4F6C_DD1D) >> 33) % bound
    }
}

extension GrayImage {
    /// A 3×3 box blur: a phone camera's softness.
    func boxBlurred() -> GrayImage {
        var out = self
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                var sum = 0
                for dy in -1...1 { for dx in -1...1 { sum += Int(self[x + dx, y + dy]) } }
                out[x, y] = UInt8(sum / 9)
            }
        }
        return out
    }
}

@Suite struct FrameDecoderTests {
    static let payload = "HTTPS://HUNT.EXAMPLE/C/DEMO/A1/Q4M2ZV8K3T5X7"

    /// The first frame each decoder reads the code in, and how many zbar passes it ran.
    func firstRead(_ frames: [GrayImage], with decode: (GrayImage) -> (found: Bool, passes: Int)) -> (frame: Int?, passes: Int) {
        var passes = 0
        for (i, frame) in frames.enumerated() {
            let (found, n) = decode(frame)
            passes += n
            if found { return (i, passes) }
        }
        return (nil, passes)
    }

    @Test("the code is read no later than with every pass run on every frame, for far fewer zbar passes",
          arguments: [ApproachClip.Print.plain, .shadowed, .lightOnDark])
    func approach(print: ApproachClip.Print) throws {
        let code = try QRSymbol(encoding: Self.payload)
        let frames = try ApproachClip(code: code, print: print, to: print == .shadowed ? 4.5 : 3.2).readBack()
        let everyPass = PictureDecoder(passes: [.full, .binarized, .inverted])
        let before = firstRead(frames) { frame in
            let found = everyPass.decode(frame).contains { $0.text == Self.payload }
            return (found, found ? 1 : 3)   // a frame without the code ran all three
        }
        let gated = FrameDecoder()
        let now = firstRead(frames) { frame in
            (gated.decode(frame).contains { $0.text == Self.payload }, gated.lastPasses.count)
        }
        let first = try #require(before.frame, "the clip never shows a readable code")
        #expect(first > 5, "the clip should start with frames too far away to read")
        let read = try #require(now.frame, "the gated decoder never read the code (every pass read it at frame \(first))")
        #expect(read <= first)
        #expect(now.passes < before.passes)
        // Where the saving is: a frame without the code costs no zbar pass where nothing in it
        // looks like a finder pattern, else one sparse pass (a half or a quarter of one), not
        // three, but where bricks nest like a finder pattern in three places.
        let looking = frames.prefix(10).map { frame in
            (gated.decode(frame).isEmpty, gated.lastPasses.count)
        }
        let nothingRead = looking.allSatisfy { $0.0 }, passes = looking.map { $0.1 }
        #expect(nothingRead)
        #expect(passes.reduce(0, +) <= 12, "zbar passes over the 10 frames without the code: \(passes)")
    }

    /// A player who holds the phone close: the code fills most of the frame, with modules
    /// several times the width zbar's finder search needs.
    @Test("a code held close is read in every frame that every pass reads it in",
          arguments: [ApproachClip.Print.plain, .shadowed, .lightOnDark])
    func heldClose(print: ApproachClip.Print) throws {
        let code = try QRSymbol(encoding: Self.payload)
        let frames = try ApproachClip(code: code, print: print, looking: 0, count: 24, from: 2.5, to: 12.5).readBack()
        let everyPass = PictureDecoder(passes: [.full, .binarized, .inverted])
        let gated = FrameDecoder()
        var readable = 0
        for (i, frame) in frames.enumerated() where everyPass.decode(frame).contains(where: { $0.text == Self.payload }) {
            readable += 1
            #expect(gated.decode(frame).contains { $0.text == Self.payload }, "frame \(i): passes \(gated.lastPasses)")
        }
        #expect(readable >= 12, "every pass read only \(readable) of the \(frames.count) frames")
    }

    /// A frame whose binarised copy shows no finder-like place at all gets no zbar pass. What
    /// that rests on: walking up to a code, from modules of a third of a pixel, its finder
    /// patterns show as finder-like places frames before any pass of zbar reads it, in every
    /// print; and a frame with nothing in it costs the binarising alone.
    @Test("no zbar pass where no finder-like place shows, and none shows only far from a readable code",
          arguments: [ApproachClip.Print.plain, .shadowed, .lightOnDark])
    func nothingFinderLike(print: ApproachClip.Print) throws {
        let code = try QRSymbol(encoding: Self.payload)
        let frames = try ApproachClip(code: code, print: print, count: 60, from: 0.3, to: print == .shadowed ? 4.5 : 3.2).readBack()
        let everyPass = PictureDecoder(passes: [.full, .binarized, .inverted])
        let places = frames.map { frame in
            let stretched = frame.stretched()
            return stretched.binarized(window: stretched.adaptiveWindow).codeCorners().places
        }
        let firstRead = try #require(frames.firstIndex { everyPass.decode($0).contains { $0.text == Self.payload } })
        let lastBlank = try #require(places[..<firstRead].lastIndex(of: 0))
        #expect(firstRead - lastBlank >= 3, "finder-like places by frame: \(places)")
        #expect(!places[firstRead...].contains(0), "finder-like places by frame: \(places)")
        let gated = FrameDecoder()
        for (i, frame) in frames.enumerated() where places[i] == 0 {
            #expect(gated.decode(frame).isEmpty)
            #expect(gated.lastPasses.isEmpty, "frame \(i): \(gated.lastPasses)")
        }
    }

    @Test func lightOnDarkCodesGoToTheInvertedPass() throws {
        let code = try QRSymbol(encoding: "LIGHT ON DARK").image(moduleSize: 4, margin: 4)
        let inverted = code.inverted()
        let decoder = FrameDecoder()
        #expect(decoder.decode(inverted).map(\.text) == ["LIGHT ON DARK"])
        #expect(decoder.lastPasses == [.full, .inverted])
        #expect(code.finderPatterns().dark == 3 && inverted.finderPatterns().light == 3)
    }

    /// The row read eight pixels at a time ends its runs where a pixel-by-pixel walk does:
    /// on rows of every length around the eight-pixel steps, with runs from one pixel long to
    /// longer than a step, and grey levels either side of 128 (not only 0 and 255).
    @Test func runEndsAreWhereTheToneChanges() {
        var rng = SeededRandom(seed: 27)
        for count in Array(0...40) + [63, 64, 65, 640] {
            for _ in 0..<20 {
                var row: [UInt8] = []
                var dark = rng.next(2) == 0
                while row.count < count {
                    for _ in 0..<min(1 + rng.next(rng.next(2) == 0 ? 3 : 12), count - row.count) {
                        row.append(UInt8(dark ? rng.next(128) : 128 + rng.next(128)))
                    }
                    dark.toggle()
                }
                let expected = (1..<max(count, 1)).filter { (row[$0] < 128) != (row[$0 - 1] < 128) } + (count > 0 ? [count] : [])
                var ends: [Int] = []
                row.withUnsafeBufferPointer { px in
                    GrayImage.eachRunEnd(in: px.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: count) { ends.append($0) }
                }
                #expect(ends == expected, "row of \(count): \(row)")
            }
        }
    }

    @Test("finder proportions, as zbar counts them with a unit's slack", arguments: [
        ([1, 1, 3, 1, 1], true), ([4, 4, 12, 4, 4], true), ([5, 3, 13, 4, 4], true),
        ([1, 1, 1, 1, 1], false), ([3, 1, 3, 1, 3], false), ([1, 1, 9, 1, 1], false), ([1, 1, 3, 1, 9], false),
    ])
    func proportions(runs: [Int], finder: Bool) {
        #expect(GrayImage.looksLikeFinder(runs[0], runs[1], runs[2], runs[3], runs[4]) == finder)
    }
}


@Suite struct BinarizationTests {
    /// The division-free threshold gives what the window mean, rounded down, gave.
    @Test(arguments: [(640, 480, 61), (37, 23, 15), (300, 9, 15), (10, 40, 61)])
    func sameAsTheWindowMean(width: Int, height: Int, window: Int) {
        var rng = SeededRandom(seed: UInt64(width * height))
        var image = GrayImage(width: width, height: height, fill: 0)
        for i in image.pixels.indices { image.pixels[i] = UInt8(clamping: (i % width) * 100 / width + rng.next(150)) }
        let table = IntegralImage(image)
        let r = window / 2
        let expected = table.withSums { s in
            image.pixels.indices.map { i -> UInt8 in
                let mean = table.mean(x: i % width, y: i / width, r: r, in: s)
                return Int(image.pixels[i]) * 100 < mean * 88 ? 0 : 255
            }
        }
        #expect(image.binarized(window: window).pixels == expected)
    }

    /// The histogram counted in four tables adds up to the one counted a pixel at a time, on
    /// pixel counts that are not a multiple of four.
    @Test(arguments: [0, 1, 7, 640 * 480 + 3])
    func histogramCountsEveryPixel(count: Int) {
        var rng = SeededRandom(seed: UInt64(count + 1))
        let image = GrayImage(width: count, height: 1, pixels: (0..<count).map { _ in UInt8(rng.next(rng.next(2) == 0 ? 4 : 256)) })
        var expected = [Int](repeating: 0, count: 256)
        for p in image.pixels { expected[Int(p)] += 1 }
        #expect(image.histogram() == expected)
    }
}
