/// Bounds checked before memory is spent on a picture: its size on disk, and the pixel count
/// its header declares (a 100-byte file can claim to be 60000×60000).
///
/// ```swift
/// let limits = PictureLimits(maxPixels: 20_000_000)
/// let picture = try Picture(data: bytes, limits: limits)
/// ```
public struct PictureLimits: Sendable, Equatable {
    /// Largest file read, in bytes.
    public var maxFileBytes: Int
    /// Largest width × height decoded.
    public var maxPixels: Int

    /// 64 MB and 50 megapixels: more than any phone photo, far less than a hostile header claims.
    public init(maxFileBytes: Int = 64_000_000, maxPixels: Int = 50_000_000) {
        self.maxFileBytes = maxFileBytes
        self.maxPixels = maxPixels
    }

    func check(width: Int, height: Int) throws(PictureError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard width > 0, height > 0, !overflow, pixels <= maxPixels else {
            throw .tooManyPixels(width: width, height: height, limit: maxPixels)
        }
    }
}
