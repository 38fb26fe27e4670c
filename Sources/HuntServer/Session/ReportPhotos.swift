import Foundation
import Hummingbird
import Play
import QRImaging

/// The photos players send with their reports, kept in the data directory under their SHA-256
/// (the ledger keeps only the hash), so the game master can look before walking out.
///
/// ```swift
/// let photos = ReportPhotos(folder: "\(data)/server/report-photos")
/// try photos.keep(jpeg)                    // the file's name is its SHA-256
/// photos.photo(sha256: report.photoSHA256!)?.type   // "image/jpeg"
/// ```
struct ReportPhotos: Sendable {
    let folder: String

    /// The picture formats a report photo may be, by their first bytes.
    static func type(of bytes: Data) -> String? {
        let head = [UInt8](bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if head.count >= 12, String(decoding: head[4..<8], as: UTF8.self) == "ftyp" { return "image/heic" }
        return nil
    }

    /// Writes the photo under `sha256` (whole or not at all: a temporary file renamed).
    func keep(_ bytes: Data, sha256: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = "\(folder)/\(sha256)"
        guard !FileManager.default.fileExists(atPath: path) else { return }
        let temporary = path + ".part-\(UUID().uuidString)"
        try bytes.write(to: URL(fileURLWithPath: temporary))
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
    }

    /// The kept photo with this hash, and its type.
    func photo(sha256: String) -> (bytes: Data, type: String)? {
        guard sha256.allSatisfy(\.isHexDigit),
              let bytes = FileManager.default.contents(atPath: "\(folder)/\(sha256)"),
              let type = Self.type(of: bytes) else { return nil }
        return (bytes, type)
    }
}

extension ServedHunt {
    /// A photo a player sent as base64 (a report's, a photo task's), checked and re-encoded as a
    /// small JPEG on the picture pool: what is kept is never what was sent (no EXIF, no
    /// location, no trailing bytes).
    ///
    /// ```swift
    /// let jpeg = try await session.sentPhoto(body.photo, by: player)
    /// ```
    func sentPhoto(_ base64: String, by player: String) async throws -> Data {
        guard let bytes = Data(base64Encoded: base64) else { throw APIError.badRequest("bad-photo", "photo is not base64") }
        guard ReportPhotos.type(of: bytes) != nil else {
            throw APIError(.unprocessableContent, "bad-photo", "photo is not a JPEG, PNG or HEIC picture")
        }
        return try await ReportPhotoThumbnail.make(from: bytes, limits: PictureLimits(maxFileBytes: BodyLimits.photo),
                                                   for: game.pictureOwner(player))
    }
}

extension Response {
    /// A kept photo, for the game master's eyes only (the browser may keep it an hour).
    static func keptPhoto(_ photo: (bytes: Data, type: String)) -> Response {
        Response(status: .ok, headers: [.contentType: photo.type, .cacheControl: "private, max-age=3600"],
                 body: .init(byteBuffer: ByteBuffer(bytes: photo.bytes)))
    }
}
