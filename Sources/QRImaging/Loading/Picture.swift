import Foundation

/// An image file read far enough to know its format, size and orientation, whose upright grey
/// pixels can be had at full size or reduced. A JPEG is decoded on demand at the reduction
/// asked for (libjpeg scales in the DCT, so a quarter-size decode costs far less than a full
/// one); PNG and HEIC are decoded once, here.
///
/// What decoding may cost is bounded by ``PictureLimits``: a picture larger than
/// ``PictureLimits/maxFullDecodePixels`` is read as its reduced copy (``scale`` file pixels a
/// side to each of its pixels), and a PNG larger than any phone makes is refused from its
/// header.
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
    /// File pixels a side to one pixel of ``image(reduction:)`` at reduction 1: 1, unless the
    /// picture is larger than the limits let be searched at full size (then 2, 4 or 8).
    public let scale: Int
    /// Upright size of ``image(reduction:)`` at reduction 1 (the file's, divided by ``scale``).
    public var width: Int { orientation.swapsAxes ? workingHeight : workingWidth }
    public var height: Int { orientation.swapsAxes ? workingWidth : workingHeight }

    /// Stored (not yet upright) size at ``scale``.
    private let workingWidth: Int, workingHeight: Int
    private let bytes: [UInt8]
    private let decoded: GrayImage?
    private let maxScans: Int

    /// Reads the header and checks `limits` before any pixel memory is spent.
    public init(data: Data, limits: PictureLimits = PictureLimits()) throws(PictureError) {
        guard !data.isEmpty else { throw .empty }
        guard data.count <= limits.maxFileBytes else { throw .tooLarge(bytes: data.count, limit: limits.maxFileBytes) }
        guard let format = PictureFormat(sniffing: data) else { throw .unknownFormat }
        self.format = format
        maxScans = limits.maxJPEGScans
        let bytes = [UInt8](data)
        switch format {
        case .jpeg:
            let header = try JPEGDecoder.header(bytes)
            try limits.check(width: header.width, height: header.height)
            (storedWidth, storedHeight) = (header.width, header.height)
            scale = limits.reduction(width: header.width, height: header.height)
            (workingWidth, workingHeight) = scale == 1 ? (header.width, header.height) : try JPEGDecoder.size(bytes, reduction: scale)
            orientation = EXIFOrientation.read(jpeg: bytes)
            self.bytes = bytes
            decoded = nil
            heifExifBlock = nil
        case .png:
            guard let (width, height) = PNGCodec.declaredSize(data) else {
                throw .unreadable(format: .png, reason: "no IHDR chunk where PNG puts it")
            }
            try limits.check(width: width, height: height)
            guard width * height <= limits.maxPNGPixels else {
                throw .tooCostly(format: .png, width: width, height: height, limit: limits.maxPNGPixels)
            }
            let image: GrayImage
            do { image = try PNGCodec.decode(data, pixelLimit: limits.maxPNGPixels) } catch {
                switch error {
                case .tooManyPixels(let w, let h, let limit): throw .tooCostly(format: .png, width: w, height: h, limit: limit)
                case .unreadable(let why), .writeFailed(let why): throw .unreadable(format: .png, reason: why)
                }
            }
            (storedWidth, storedHeight, orientation, self.bytes, heifExifBlock) = (image.width, image.height, .up, [], nil)
            scale = limits.reduction(width: image.width, height: image.height)
            decoded = image.reduced(by: scale)
            (workingWidth, workingHeight) = (decoded!.width, decoded!.height)
        case .heic:
            let (image, exif) = try HEIFDecoder.decode(bytes, limits: limits)
            (storedWidth, storedHeight, orientation, self.bytes, heifExifBlock) = (image.width, image.height, .up, [], exif)
            scale = limits.reduction(width: image.width, height: image.height)
            decoded = image.reduced(by: scale)
            (workingWidth, workingHeight) = (decoded!.width, decoded!.height)
        }
    }

    /// The upright image at about 1/`reduction` of ``width`` and ``height`` (`reduction` 1, 2,
    /// 4 or 8).
    public func image(reduction: Int = 1) throws(PictureError) -> GrayImage {
        precondition([1, 2, 4, 8].contains(reduction), "reduction must be 1, 2, 4 or 8")
        if let decoded { return reduction == 1 ? decoded : decoded.reduced(by: reduction) }
        let total = reduction * scale
        let stored = try JPEGDecoder.decode(bytes, reduction: min(total, 8), maxScans: maxScans)
        return orientation.apply(to: total > 8 ? stored.reduced(by: total / 8) : stored)
    }

    /// Where upright position (x, y) of ``image(reduction:)`` at reduction 1 lies in the file's
    /// stored pixels.
    public func storedPoint(x: Double, y: Double) -> (x: Double, y: Double) {
        let p = orientation.storedPoint(x: x, y: y, storedWidth: workingWidth, storedHeight: workingHeight)
        return (p.x * Double(scale), p.y * Double(scale))
    }
}
