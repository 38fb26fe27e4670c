import CJPEGShim
import Foundation

/// JPEG to grey through libjpeg-turbo: baseline, progressive, greyscale, CMYK and YCCK. The
/// C shim owns each decompressor from creation to destruction, so no libjpeg pointer or long
/// jump reaches Swift.
enum JPEGDecoder {
    /// What a JPEG's header says.
    struct Header {
        let width: Int
        let height: Int
        let components: Int
        let progressive: Bool
    }

    static func header(_ bytes: [UInt8]) throws(PictureError) -> Header {
        let info = try readInfo(bytes, reduction: 1)
        return Header(width: Int(info.width), height: Int(info.height),
                      components: Int(info.components), progressive: info.progressive != 0)
    }

    /// The stored (not yet oriented) image at 1/`reduction` of its size, with `reduction` 1,
    /// 2, 4 or 8: libjpeg scales in the DCT, so a quarter-size decode skips most of the work.
    /// A progressive file of more than `maxScans` scans is refused while it is read.
    static func decode(_ bytes: [UInt8], reduction: Int = 1, maxScans: Int = PictureLimits().maxJPEGScans) throws(PictureError) -> GrayImage {
        let info = try readInfo(bytes, reduction: reduction)
        let width = Int(info.output_width), height = Int(info.output_height)
        var pixels = [UInt8](repeating: 0, count: width * height)
        var message = [CChar](repeating: 0, count: Int(GEOQR_JPEG_MESSAGE_SIZE))
        let status = bytes.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                geoqr_jpeg_decode_gray(src.baseAddress, src.count, Int32(reduction), Int32(maxScans), dst.baseAddress, dst.count, &message)
            }
        }
        guard status == 0 else { throw .unreadable(format: .jpeg, reason: text(message)) }
        return GrayImage(width: width, height: height, pixels: pixels)
    }

    /// The size a decode at 1/`reduction` gives (libjpeg rounds up).
    static func size(_ bytes: [UInt8], reduction: Int) throws(PictureError) -> (width: Int, height: Int) {
        let info = try readInfo(bytes, reduction: reduction)
        return (Int(info.output_width), Int(info.output_height))
    }

    private static func readInfo(_ bytes: [UInt8], reduction: Int) throws(PictureError) -> geoqr_jpeg_info {
        var info = geoqr_jpeg_info()
        var message = [CChar](repeating: 0, count: Int(GEOQR_JPEG_MESSAGE_SIZE))
        let status = bytes.withUnsafeBufferPointer { src in
            geoqr_jpeg_read_info(src.baseAddress, src.count, Int32(reduction), &info, &message)
        }
        guard status == 0 else { throw .unreadable(format: .jpeg, reason: text(message)) }
        return info
    }

    static func text(_ message: [CChar]) -> String {
        let bytes = message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
        return bytes.isEmpty ? "unknown error" : String(decoding: bytes, as: UTF8.self)
    }
}
