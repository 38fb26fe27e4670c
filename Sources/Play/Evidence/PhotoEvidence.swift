import Crypto
import Foundation
import GeoQR
import PhotoMetadata
import QRImaging
import Workers

/// What a photo says about a claim, read in one place for every front end (`geoqr scan`,
/// `geoqr claim`, the server's photo upload): every code in it, where and when it was taken
/// (EXIF GPS and time, from the file or, for a HEIC, from the item libheif found), and the
/// SHA-256 of its bytes, which tells when two players sent the same photo.
///
/// The passes go on until one finds a GeoQR code (``GeoQR/ClaimRules/looksLikeGeoQR(_:)``), not
/// merely any code: a large poster QR beside the small cache code must not end the search before
/// the cache's code is read. Every code the passes found is kept.
///
/// ```swift
/// let evidence = try PhotoEvidence(bytes: try Data(contentsOf: url))
/// evidence.codes      // ["GQ1.DEMO.A2.K3J5M2QX7P4RT6WA"]
/// evidence.location   // ClaimLocation(coordinate: …, source: .exif, time: gpsTime)
/// ```
public struct PhotoEvidence: Sendable {
    /// The text of every distinct code found, in the order found.
    public var codes: [String]
    /// The EXIF position, with its accuracy and GPS time; nil when the photo has none.
    public var location: ClaimLocation?
    /// When the camera's clock says the photo was taken (DateTimeOriginal, in its recorded
    /// offset, else this machine's time zone).
    public var takenAt: Date?
    /// What backs the claim up in the ledger: the photo's digest and the time it carries
    /// (GPS time, which is satellite UTC, before the camera's clock).
    public var evidence: ClaimEvidence

    /// Reads the photo's codes and metadata; throws when the bytes are not a picture the
    /// limits allow.
    public init(bytes: Data, limits: PictureLimits = PictureLimits()) throws(PictureError) {
        let decoded = try PictureDecoder(sought: ClaimRules.looksLikeGeoQR).decode(fileBytes: bytes, limits: limits)
        let metadata = PhotoMetadata(fileBytes: bytes)
            ?? decoded.picture.heifExifBlock.flatMap(PhotoMetadata.init(heifExifBlock:))
        codes = decoded.symbols.map(\.text)
        location = metadata?.coordinate.map {
            ClaimLocation(coordinate: $0, accuracy: metadata?.accuracy, source: .exif, time: metadata?.gpsTime)
        }
        takenAt = metadata?.takenAt(assuming: .current)
        evidence = ClaimEvidence(photoSHA256: SHA256.hash(data: bytes).hex, exifTime: metadata?.gpsTime ?? takenAt)
    }

    /// Reads the photo on ``PictureWork/pool``, one picture at a time for `owner`: throws
    /// ``Workers/WorkerPoolError`` when the pool's queue is full or `owner` (``Game/pictureOwner(_:)``) already has a
    /// picture being read, else as ``init(bytes:limits:)``.
    public static func read(_ bytes: Data, limits: PictureLimits = PictureLimits(), for owner: String) async throws -> PhotoEvidence {
        try await PictureWork.pool.run(for: owner) { try PhotoEvidence(bytes: bytes, limits: limits) }
    }

    /// The claim this photo makes, made `now`: located by its EXIF, else by `fallback` (the
    /// browser's position, `--at`).
    public func claim(fallback: ClaimLocation?, now: Date) -> Claim {
        Claim(payloads: codes, location: location ?? fallback, takenAt: takenAt, claimedAt: now)
    }
}

/// The codes in one camera frame (a phone's browser sends a few a second while its player
/// aims), read by ``QRImaging/FrameDecoder``: a sparse zbar pass where the frame shows no
/// code's corners, the full and harder ones only where it does. The next frame is a fraction of
/// a second away.
///
/// Frames are decoded on ``PictureWork/pool``, in the order they came, each thread with its
/// own ``QRImaging/FrameDecoder`` (its zbar scanner made once).
///
/// ```swift
/// let codes = try await FrameEvidence.read(jpeg, for: "P3").codes
/// ```
public struct FrameEvidence: Sendable {
    public var codes: [String]

    /// The frame's codes; throws ``Workers/WorkerPoolError`` when the pool's queue is full or
    /// `owner` (``Game/pictureOwner(_:)``) already has a picture being read, else `PictureError`.
    public static func read(_ bytes: Data, limits: PictureLimits = PictureLimits(), for owner: String? = nil) async throws -> FrameEvidence {
        try await PictureWork.pool.run(for: owner) {
            FrameEvidence(codes: try PictureWork.frameDecoder().decode(fileBytes: bytes, limits: limits).map(\.text))
        }
    }
}
