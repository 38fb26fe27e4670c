import Foundation

/// Frames from a YUV4MPEG2 stream: what `ffmpeg -f v4l2 -i /dev/video0 -f yuv4mpegpipe -`
/// writes, or a `.y4m` clip. Only the luma (Y) plane is kept; the chroma planes of C420, C422,
/// C444 and C444alpha are read past, and mono has none. The header's size is checked against
/// the pixel limit before any frame memory is allocated.
///
/// ```swift
/// var frames = try Y4MReader(fileDescriptor: STDIN_FILENO)
/// print(frames.width, frames.height, frames.framesPerSecond)
/// while let frame = try frames.nextFrame() { decode(frame.image) }
/// ```
public struct Y4MReader: FrameSource {
    public let width: Int, height: Int
    /// From the header's `F` parameter; 30 when it is missing or nonsensical.
    public let framesPerSecond: Double
    /// The header's colour space (`420jpeg`, `mono`, …).
    public let colourSpace: String
    private let frameBytes: Int
    private var bytes: StreamBytes
    private var index = 0

    /// The longest header or FRAME line read (the format has no limit; real ones are short).
    static let maxLineLength = 4096
    /// Each side at most this, whatever the pixel limit: a sanity bound on the header.
    public static let maxSide = 16384

    /// Reads and checks the stream header.
    public init(fileDescriptor: Int32, pixelLimit: Int = PNGCodec.defaultPixelLimit) throws(Y4MError) {
        bytes = StreamBytes(fileDescriptor: fileDescriptor)
        let header: [UInt8]
        do {
            guard let line = try bytes.line(limit: Self.maxLineLength) else { throw Y4MError.empty }
            header = line
        } catch let error as Y4MError {
            throw error
        } catch {
            throw Y4MError.notY4M
        }
        let fields = String(decoding: header, as: UTF8.self).split(separator: " ")
        guard fields.first == "YUV4MPEG2" else { throw .notY4M }
        var width = 0, height = 0, fps = 30.0, colour = "420jpeg"
        for field in fields.dropFirst() {
            let value = String(field.dropFirst())
            switch field.first {
            case "W": width = Int(value) ?? -1
            case "H": height = Int(value) ?? -1
            case "F":
                let parts = value.split(separator: ":").compactMap { Double($0) }
                if parts.count == 2, parts[1] > 0, parts[0] / parts[1] > 0, (parts[0] / parts[1]).isFinite { fps = parts[0] / parts[1] }
            case "C": colour = value
            default: break
            }
        }
        guard (1...Self.maxSide).contains(width), (1...Self.maxSide).contains(height) else {
            throw .badSize(width: width, height: height)
        }
        guard width * height <= pixelLimit else { throw .tooManyPixels(width: width, height: height, limit: pixelLimit) }
        guard let size = Self.frameBytes(colour: colour, width: width, height: height) else { throw .unsupportedColourSpace(colour) }
        self.width = width
        self.height = height
        framesPerSecond = fps
        colourSpace = colour
        frameBytes = size
    }

    /// The next frame's luma plane; nil after the last frame.
    public mutating func nextFrame() throws(Y4MError) -> CameraFrame? {
        let marker: [UInt8]
        do {
            guard let line = try bytes.line(limit: Self.maxLineLength) else { return nil }
            marker = line
        } catch {
            throw Self.failure(error, frame: index)
        }
        guard marker.starts(with: Array("FRAME".utf8)), marker.count == 5 || marker[5] == 0x20 else {
            throw .badFrameMarker(frame: index)
        }
        let lumaCount = width * height
        var luma = [UInt8](repeating: 0, count: lumaCount)
        do {
            try luma.withUnsafeMutableBytes { target in try bytes.read(lumaCount, into: target) }
            try bytes.read(frameBytes - lumaCount, into: nil)
        } catch let error as StreamError {
            throw Self.failure(error, frame: index)
        } catch {
            throw .unreadable("\(error)")
        }
        defer { index += 1 }
        return CameraFrame(image: GrayImage(width: width, height: height, pixels: luma), index: index,
                           time: Double(index) / framesPerSecond)
    }

    /// Bytes per frame for an 8-bit colour space; nil for others (10-bit and up).
    static func frameBytes(colour: String, width w: Int, height h: Int) -> Int? {
        let halfW = (w + 1) / 2, halfH = (h + 1) / 2
        switch colour {
        case "420jpeg", "420paldv", "420mpeg2", "420": return w * h + 2 * halfW * halfH
        case "422": return w * h + 2 * halfW * h
        case "444": return 3 * w * h
        case "444alpha": return 4 * w * h
        case "mono": return w * h
        default: return nil
        }
    }

    private static func failure(_ error: StreamError, frame: Int) -> Y4MError {
        switch error {
        case .truncated: .truncatedFrame(frame: frame)
        case .lineTooLong: .badFrameMarker(frame: frame)
        case .unreadable(let why): .unreadable(why)
        }
    }
}

/// Why a Y4M stream could not be read, in words for the person who fed it.
public enum Y4MError: Error, Equatable, CustomStringConvertible {
    case empty
    case notY4M
    case badSize(width: Int, height: Int)
    case tooManyPixels(width: Int, height: Int, limit: Int)
    case unsupportedColourSpace(String)
    case badFrameMarker(frame: Int)
    case truncatedFrame(frame: Int)
    case unreadable(String)

    public var description: String {
        switch self {
        case .empty: "empty stream: no Y4M header"
        case .notY4M: "not a Y4M stream (it should start with YUV4MPEG2; ffmpeg writes one with -f yuv4mpegpipe)"
        case .badSize(let w, let h): "Y4M header gives a frame size of \(w)×\(h); each side must be 1…\(Y4MReader.maxSide)"
        case .tooManyPixels(let w, let h, let limit): "Y4M frames of \(w)×\(h) are more than the \(limit)-pixel limit"
        case .unsupportedColourSpace(let c): "Y4M colour space C\(c) is not read: use an 8-bit one (420jpeg, 422, 444, mono), e.g. ffmpeg -pix_fmt yuv420p"
        case .badFrameMarker(let n): "frame \(n): no FRAME marker where one should be: the stream is damaged"
        case .truncatedFrame(let n): "frame \(n): the stream ends inside the frame"
        case .unreadable(let why): "cannot read the stream: \(why)"
        }
    }
}
