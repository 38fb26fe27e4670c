/// Bounds checked before memory or time is spent on a picture: its size on disk, the pixel
/// count its header declares (a 100-byte file can claim to be 60000×60000), and what decoding
/// it may cost, chosen from what phones make.
///
/// A phone's camera writes JPEG or HEIC: 12 MP by default, up to 48 MP (iPhone's HEIF Max,
/// 8064×6048) or 50 MP (the high-resolution modes of Pixel and Galaxy phones). It writes PNG
/// only for screenshots, which are under 6 MP even on a tablet. So:
/// - a JPEG beyond ``maxFullDecodePixels`` is decoded at 1/2, 1/4 or 1/8 of each side, in the
///   DCT, for a fraction of the cost (a 50 MP photo reads as 12.5 MP, what most phones take);
/// - a HEIC beyond it is decoded (libheif has no reduced decode) and reduced before any code
///   is sought, so the passes over it cost what a 12 MP photo's do;
/// - a PNG beyond ``maxPNGPixels`` is refused from its header (``PictureError/tooCostly(format:width:height:limit:)``):
///   a 64 KB PNG can declare 50 MP of white, and nothing a player sends is such a PNG;
/// - a progressive JPEG of more than ``maxJPEGScans`` scans is refused while it is read (a
///   camera's has about ten; each hostile one costs a pass over the whole image).
///
/// ```swift
/// let limits = PictureLimits(maxPixels: 20_000_000)
/// let picture = try Picture(data: bytes, limits: limits)
/// ```
public struct PictureLimits: Sendable, Equatable {
    /// Largest file read, in bytes.
    public var maxFileBytes: Int
    /// Largest width × height a header may declare, whatever the format.
    public var maxPixels: Int
    /// Largest width × height searched for codes at full size: larger JPEGs are decoded
    /// reduced, larger HEICs reduced once decoded.
    public var maxFullDecodePixels: Int
    /// Largest width × height of a PNG.
    public var maxPNGPixels: Int
    /// Most scans a progressive JPEG may have.
    public var maxJPEGScans: Int

    /// 64 MB and 50 megapixels declared; 24 MP searched at full size; PNGs of 12 MP (twice the
    /// largest screenshot); 100 JPEG scans (libjpeg-turbo's own tools suggest 500 as a ceiling
    /// for fuzzing; no encoder writes more than a few dozen).
    public init(maxFileBytes: Int = 64_000_000, maxPixels: Int = 50_000_000, maxFullDecodePixels: Int = 24_000_000,
                maxPNGPixels: Int = 12_000_000, maxJPEGScans: Int = 100) {
        self.maxFileBytes = maxFileBytes
        self.maxPixels = maxPixels
        self.maxFullDecodePixels = maxFullDecodePixels
        self.maxPNGPixels = maxPNGPixels
        self.maxJPEGScans = maxJPEGScans
    }

    func check(width: Int, height: Int) throws(PictureError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixels <= maxPixels else {
            throw .tooManyPixels(width: width, height: height, limit: maxPixels)
        }
    }

    /// The smallest reduction (1, 2, 4 or 8 a side) that brings width × height within
    /// ``maxFullDecodePixels``; 8 when none does.
    func reduction(width: Int, height: Int) -> Int {
        [1, 2, 4].first { (width / $0) * (height / $0) <= maxFullDecodePixels } ?? 8
    }
}
