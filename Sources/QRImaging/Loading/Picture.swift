import Foundation

/// An image file read far enough to know its format, size and orientation, whose upright grey
/// pixels can be had at full size or reduced. A JPEG is decoded on demand at the reduction
/// asked for (libjpeg scales in the DCT, so a quarter-size decode costs far less than a full
/// one); PNG and HEIC are decoded once, here.
///
/// ```swift
/// let picture = try Picture(data: try Data(contentsOf: url))
/// let quick = try picture.image(reduction: 4)   // upright, about a quarter of each side
/// ```
public struct Picture: Sendable {
    /// What the file's first bytes say it is.
    public let format: PictureFormat
    /// Size of the pixels as stored in the file.
    public let storedWidth: Int, storedHeight: Int
    /// How the stored pixels are turned upright (EXIF for JPEG; always `.up` otherwise, since
    /// libheif applies HEIF's own rotation while decoding).
    public let orientation: Orientation
    /// A HEIC's EXIF block as libheif stores it (a 4-byte offset to the TIFF header, then the
    /// block), for `PhotoMetadata(heifExifBlock:)`; nil for JPEG and PNG, whose EXIF sits in
    /// the file's own bytes where `PhotoMetadata(fileBytes:)` finds it, and for HEICs without.
    public let heifExifBlock: [UInt8]?
    /// Upright size.
    public var width: Int { orientation.swapsAxes ? storedHeight : storedWidth }
    public var height: Int { orientation.swapsAxes ? storedWidth : storedHeight }

    private let bytes: [UInt8]
    private let decoded: GrayImage?

    /// Reads the header and checks `limits` before any pixel memory is spent.
    public init(data: Data, limits: PictureLimits = PictureLimits()) throws(PictureError) {
        guard !data.isEmpty else { throw .empty }
        guard data.count <= limits.maxFileBytes else { throw .tooLarge(bytes: data.count, limit: limits.maxFileBytes) }
        guard let format = PictureFormat(sniffing: data) else { throw .unknownFormat }
        self.format = format
        let bytes = [UInt8](data)
        switch format {
        case .jpeg:
            let header = try JPEGDecoder.header(bytes)
            try limits.check(width: header.width, height: header.height)
            (storedWidth, storedHeight) = (header.width, header.height)
            orientation = EXIFOrientation.read(jpeg: bytes)
            self.bytes = bytes
            decoded = nil
            heifExifBlock = nil
        case .png:
            let image: GrayImage
            do { image = try PNGCodec.decode(data, pixelLimit: limits.maxPixels) } catch {
                switch error {
                case .tooManyPixels(let w, let h, let limit): throw .tooManyPixels(width: w, height: h, limit: limit)
                case .unreadable(let why), .writeFailed(let why): throw .unreadable(format: .png, reason: why)
                }
            }
            (storedWidth, storedHeight, orientation, self.bytes, decoded) = (image.width, image.height, .up, [], image)
            heifExifBlock = nil
        case .heic:
            let (image, exif) = try HEIFDecoder.decode(bytes, limits: limits)
            (storedWidth, storedHeight, orientation, self.bytes, decoded) = (image.width, image.height, .up, [], image)
            heifExifBlock = exif
        }
    }

    /// The upright image at about 1/`reduction` of each side (`reduction` 1, 2, 4 or 8).
    public func image(reduction: Int = 1) throws(PictureError) -> GrayImage {
        precondition([1, 2, 4, 8].contains(reduction), "reduction must be 1, 2, 4 or 8")
        if let decoded { return reduction == 1 ? decoded : decoded.reduced(by: reduction) }
        return orientation.apply(to: try JPEGDecoder.decode(bytes, reduction: reduction))
    }

    /// Where upright full-size position (x, y) lies in the file's stored pixels.
    public func storedPoint(x: Double, y: Double) -> (x: Double, y: Double) {
        orientation.storedPoint(x: x, y: y, storedWidth: storedWidth, storedHeight: storedHeight)
    }
}
