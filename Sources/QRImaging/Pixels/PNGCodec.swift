import CPNG
import Foundation

/// Why a PNG could not be read or written.
public enum PNGError: Error, Equatable, CustomStringConvertible {
    case unreadable(String)
    case tooManyPixels(width: Int, height: Int, limit: Int)
    case writeFailed(String)

    public var description: String {
        switch self {
        case .unreadable(let why): "not a readable PNG (\(why))"
        case .tooManyPixels(let w, let h, let limit): "PNG is \(w)×\(h), more than the \(limit)-pixel limit"
        case .writeFailed(let why): "could not encode PNG (\(why))"
        }
    }
}

/// PNG in and out through libpng's simplified API, which handles every colour type, bit depth,
/// palette, alpha and interlacing, and reports errors as values instead of long jumps. Each
/// call owns its `png_image` and frees it before returning.
public enum PNGCodec {
    /// 50 megapixels: more than any phone photo, far less than a hostile header can claim.
    public static let defaultPixelLimit = 50_000_000

    /// Encodes a grey image. With `bilevel` (only 0 and 255 present) it writes a two-entry
    /// palette, which libpng packs at one bit a pixel, as `qrencode` does.
    public static func encode(_ image: GrayImage, bilevel: Bool = false) throws(PNGError) -> Data {
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        defer { png_image_free(&png) }
        var colormap: [UInt8] = []
        var pixels = image.pixels
        if bilevel {
            png.format = png_uint_32(PNG_FORMAT_FLAG_COLORMAP)   // grey colormap
            png.colormap_entries = 2
            colormap = [0, 255]
            for i in pixels.indices { pixels[i] = pixels[i] < 128 ? 0 : 1 }
        } else {
            png.format = png_uint_32(PNG_FORMAT_GRAY)
        }
        var size: png_alloc_size_t = 0
        let ok = pixels.withUnsafeBytes { px in
            colormap.withUnsafeBytes { cm in
                // A null destination asks libpng for the encoded size first.
                png_image_write_to_memory(&png, nil, &size, 0, px.baseAddress!, Int32(image.width),
                                          bilevel ? cm.baseAddress : nil)
            }
        }
        guard ok != 0 else { throw .writeFailed(message(of: png)) }
        var out = Data(count: Int(size))
        let written = out.withUnsafeMutableBytes { dst in
            pixels.withUnsafeBytes { px in
                colormap.withUnsafeBytes { cm in
                    png_image_write_to_memory(&png, dst.baseAddress, &size, 0, px.baseAddress!,
                                              Int32(image.width), bilevel ? cm.baseAddress : nil)
                }
            }
        }
        guard written != 0 else { throw .writeFailed(message(of: png)) }
        out.count = Int(size)
        return out
    }

    /// The width and height a PNG's header declares, read from its first chunk (PNG puts
    /// IHDR first, 8 bytes in), so that a picture's cost is known before libpng is asked for
    /// anything; nil when the bytes do not start that way.
    public static func declaredSize(_ data: Data) -> (width: Int, height: Int)? {
        let head = [UInt8](data.prefix(24))
        guard head.count == 24, head[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func number(at i: Int) -> Int { head[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (number(at: 16), number(at: 20))
    }

    /// Decodes any PNG to grey, compositing transparency onto white (a code printed on clear
    /// film reads as a code on paper). The size is checked from the header before any pixel
    /// memory is allocated.
    public static func decode(_ data: Data, pixelLimit: Int = defaultPixelLimit) throws(PNGError) -> GrayImage {
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        defer { png_image_free(&png) }
        // The simplified reader reads from the caller's bytes until finish_read returns, so
        // both calls happen inside one access to them.
        let result: Result<[UInt8], PNGError> = data.withUnsafeBytes { bytes in
            guard png_image_begin_read_from_memory(&png, bytes.baseAddress, bytes.count) != 0 else {
                return .failure(.unreadable(message(of: png)))
            }
            let width = Int(png.width), height = Int(png.height)
            guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue <= pixelLimit else {
                return .failure(.tooManyPixels(width: width, height: height, limit: pixelLimit))
            }
            png.format = png_uint_32(PNG_FORMAT_GRAY)
            var pixels = [UInt8](repeating: 0, count: width * height)
            var white = png_color(red: 255, green: 255, blue: 255)
            let finished = pixels.withUnsafeMutableBytes {
                png_image_finish_read(&png, &white, $0.baseAddress, Int32(width), nil)
            }
            return finished != 0 ? .success(pixels) : .failure(.unreadable(message(of: png)))
        }
        let pixels = try result.get()
        return GrayImage(width: Int(png.width), height: Int(png.height), pixels: pixels)
    }

    private static func message(of png: png_image) -> String {
        var m = png.message
        return withUnsafeBytes(of: &m) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
    }
}
