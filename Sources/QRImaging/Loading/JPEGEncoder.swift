import CJPEGShim
import Foundation

/// Grey, RGB or CMYK pixels to JPEG through libjpeg-turbo, for fixtures and tools: the tests
/// make progressive, CMYK and EXIF-oriented files with it.
///
/// ```swift
/// let jpeg = try JPEGEncoder.encode(image, quality: 80, progressive: true)
/// ```
public enum JPEGEncoder {
    /// How the pixels passed in are laid out and how the file stores them.
    public enum Layout: Sendable {
        /// One byte a pixel.
        case gray
        /// Three bytes a pixel (R, G, B), stored as YCbCr.
        case rgb
        /// Four bytes a pixel, Adobe CMYK (inverted: 255 is no ink), stored as CMYK.
        case cmyk
        /// Four bytes a pixel as for `cmyk`, stored as YCCK.
        case ycck

        var cValue: geoqr_jpeg_layout {
            switch self {
            case .gray: GEOQR_JPEG_GRAY
            case .rgb: GEOQR_JPEG_RGB
            case .cmyk: GEOQR_JPEG_CMYK
            case .ycck: GEOQR_JPEG_YCCK
            }
        }

        var bytesPerPixel: Int {
            switch self {
            case .gray: 1
            case .rgb: 3
            case .cmyk, .ycck: 4
            }
        }
    }

    /// Encodes a grey image.
    public static func encode(_ image: GrayImage, quality: Int = 90, progressive: Bool = false,
                              app1: [UInt8]? = nil) throws(PictureError) -> Data {
        try encode(pixels: image.pixels, width: image.width, height: image.height, layout: .gray,
                   quality: quality, progressive: progressive, app1: app1)
    }

    /// Encodes pixels in `layout`; `app1` (e.g. an `Exif\0\0` TIFF block) is written as an
    /// APP1 segment after the header.
    public static func encode(pixels: [UInt8], width: Int, height: Int, layout: Layout, quality: Int = 90,
                              progressive: Bool = false, app1: [UInt8]? = nil) throws(PictureError) -> Data {
        precondition(pixels.count == width * height * layout.bytesPerPixel, "pixel buffer does not match the size")
        var out: UnsafeMutablePointer<UInt8>?
        var size = 0
        var message = [CChar](repeating: 0, count: Int(GEOQR_JPEG_MESSAGE_SIZE))
        let marker = app1 ?? []
        let status = pixels.withUnsafeBufferPointer { px in
            marker.withUnsafeBufferPointer { m in
                geoqr_jpeg_encode(px.baseAddress, Int32(width), Int32(height), layout.cValue, Int32(quality),
                                  progressive ? 1 : 0, m.baseAddress, m.count, &out, &size, &message)
            }
        }
        guard status == 0, let out else { throw .unreadable(format: .jpeg, reason: JPEGDecoder.text(message)) }
        defer { geoqr_jpeg_free(out) }
        return Data(bytes: out, count: size)
    }
}
