import Foundation
import QRImaging

/// What is kept of a photo a player sends with a report: not the upload, but a small grey
/// JPEG of it, at most ``longSide`` pixels on its long side (a few tens of KB), decoded on
/// ``PictureWork/pool`` under the same ``QRImaging/PictureLimits`` as a claim's photo. The game
/// master sees what the player saw; the data folder never holds a player's bytes as sent
/// (a 8 MB upload, a PNG bomb, a file with metadata of its own).
///
/// ```swift
/// let kept = try await ReportPhotoThumbnail.make(from: upload, for: "P3")
/// ```
public enum ReportPhotoThumbnail {
    /// Longest side kept, in pixels.
    public static let longSide = 640
    /// JPEG quality of the thumbnail.
    static let quality = 80

    /// The thumbnail, made on the picture pool, one picture at a time for `owner`.
    /// - throws: ``Workers/WorkerPoolError`` when the pool is full or `owner` (``Game/pictureOwner(_:)``) already has a
    ///   picture being read; `PictureError` when the upload is not a picture the limits allow.
    public static func make(from bytes: Data, limits: PictureLimits = PictureLimits(), for owner: String) async throws -> Data {
        try await PictureWork.pool.run(for: owner) { try make(from: bytes, limits: limits) }
    }

    /// The thumbnail, made on this thread.
    public static func make(from bytes: Data, limits: PictureLimits = PictureLimits()) throws(PictureError) -> Data {
        let picture = try Picture(data: bytes, limits: limits)
        return try JPEGEncoder.encode(try picture.thumbnail(longSide: longSide), quality: quality)
    }
}
