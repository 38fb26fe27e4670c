import Foundation
import GeoQR
import Testing
@testable import QRImaging

/// A Y4M stream of grey frames, chroma planes flat grey, as ffmpeg would write it.
func y4mStream(width: Int, height: Int, colour: String = "420jpeg", fps: String = "30:1", frames: [GrayImage]) -> Data {
    var out = Data("YUV4MPEG2 W\(width) H\(height) F\(fps) Ip A1:1 C\(colour)\n".utf8)
    let chroma = (Y4MReader.frameBytes(colour: colour, width: width, height: height) ?? width * height) - width * height
    for frame in frames {
        out += Data("FRAME\n".utf8) + Data(frame.pixels) + Data(repeating: 128, count: chroma)
    }
    return out
}

/// A file holding `data`, opened for reading; the descriptor is closed when the test ends.
final class StreamFile {
    let fd: Int32
    init(_ data: Data) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("y4m-\(UUID().uuidString)")
        try data.write(to: url)
        fd = open(url.path, O_RDONLY)
        unlink(url.path)
    }
    deinit { close(fd) }
}

@Suite struct Y4MReaderTests {
    func codeFrame(_ payload: String, width: Int = 160, height: Int = 120, x: Int = 10, y: Int = 5) throws -> GrayImage {
        let code = try QRSymbol(encoding: payload).image(moduleSize: 3, margin: 4)
        var frame = GrayImage(width: width, height: height, fill: 200)
        for r in 0..<code.height where r + y < height {
            for c in 0..<code.width where c + x < width { frame[c + x, r + y] = code[c, r] }
        }
        return frame
    }

    @Test("the luma plane of every 8-bit colour space", arguments: ["420jpeg", "420mpeg2", "422", "444", "444alpha", "mono"])
    func readsLuma(colour: String) throws {
        let frames = [try codeFrame("FIRST"), GrayImage(width: 160, height: 120, fill: 255), try codeFrame("THIRD", x: 40)]
        let file = try StreamFile(y4mStream(width: 160, height: 120, colour: colour, fps: "25:1", frames: frames))
        var reader = try Y4MReader(fileDescriptor: file.fd)
        #expect(reader.width == 160 && reader.height == 120 && reader.framesPerSecond == 25 && reader.colourSpace == colour)
        var read: [CameraFrame] = []
        while let frame = try reader.nextFrame() { read.append(frame) }
        #expect(read.map(\.image) == frames)
        #expect(read.map(\.index) == [0, 1, 2] && read.map(\.time) == [0, 0.04, 0.08])
        let scanner = SymbolReader()
        #expect(read.map { scanner.read($0.image).map(\.text) } == [["FIRST"], [], ["THIRD"]])
    }

    @Test func oddSizesRoundChromaUp() throws {
        let frames = [GrayImage(width: 7, height: 5, fill: 9), GrayImage(width: 7, height: 5, fill: 10)]
        let file = try StreamFile(y4mStream(width: 7, height: 5, frames: frames))
        var reader = try Y4MReader(fileDescriptor: file.fd)
        #expect(try reader.nextFrame()?.image == frames[0])
        #expect(try reader.nextFrame()?.image == frames[1])
        #expect(try reader.nextFrame() == nil)
    }

    @Test("bad headers are refused before any frame is allocated", arguments: [
        ("", Y4MError.empty),
        ("hello\n", .notY4M),
        ("YUV4MPEG2 W0 H10\n", .badSize(width: 0, height: 10)),
        ("YUV4MPEG2 W100000 H10\n", .badSize(width: 100000, height: 10)),
        ("YUV4MPEG2 W16384 H16384\n", .tooManyPixels(width: 16384, height: 16384, limit: 50_000_000)),
        ("YUV4MPEG2 W640 H480 C420p10\n", .unsupportedColourSpace("420p10")),
        ("YUV4MPEG2 W640\n", .badSize(width: 640, height: 0)),
        ("YUV4MPEG2 " + String(repeating: "X", count: 5000) + "\n", .notY4M),
    ])
    func badHeaders(header: String, expected: Y4MError) throws {
        let file = try StreamFile(Data(header.utf8))
        #expect(throws: expected) { _ = try Y4MReader(fileDescriptor: file.fd) }
    }

    @Test func damagedStreamsStopWithTheFrameNumber() throws {
        let good = y4mStream(width: 8, height: 8, colour: "mono", frames: [GrayImage(width: 8, height: 8)])
        var truncated = try StreamFile(good + Data("FRAME\n".utf8) + Data(count: 10))
        var reader = try Y4MReader(fileDescriptor: truncated.fd)
        _ = try reader.nextFrame()
        #expect(throws: Y4MError.truncatedFrame(frame: 1)) { _ = try reader.nextFrame() }
        truncated = try StreamFile(good + Data("GARBAGE\n".utf8))
        reader = try Y4MReader(fileDescriptor: truncated.fd)
        _ = try reader.nextFrame()
        #expect(throws: Y4MError.badFrameMarker(frame: 1)) { _ = try reader.nextFrame() }
        #expect(Y4MError.truncatedFrame(frame: 1).description == "frame 1: the stream ends inside the frame")
    }

    @Test func frameParametersAreAllowed() throws {
        let data = Data("YUV4MPEG2 W2 H2 Cmono\nFRAME Ixyz\n".utf8) + Data([1, 2, 3, 4])
        let file = try StreamFile(data)
        var reader = try Y4MReader(fileDescriptor: file.fd)
        #expect(try reader.nextFrame()?.image.pixels == [1, 2, 3, 4])
        #expect(reader.framesPerSecond == 30, "no F: 30 frames a second")
    }
}

@Suite struct CodeDebouncerTests {
    /// Which of `sightings` (code, time) are reported.
    func reports(window: Double, _ sightings: [(String, Double)]) -> [Bool] {
        var d = CodeDebouncer(window: window)
        return sightings.map { d.shouldReport($0.0, at: $0.1) }
    }

    @Test func onceAWindowPerCode() {
        let seen = reports(window: 2, [("A", 0), ("A", 0.5), ("B", 0.5), ("A", 1.99), ("A", 2), ("A", 3.9), ("A", 4), ("B", 10)])
        #expect(seen == [true, false, true, false, true, false, true, true])
    }

    @Test func manyCodesDoNotGrowWithoutBound() {
        let many = reports(window: 1, (0..<10_000).map { ("code \($0)", Double($0)) })
        #expect(many.allSatisfy { $0 })
        #expect(reports(window: 0, [("A", 0), ("A", 0)]) == [true, true])
    }
}
