import Foundation
import MultipartKit
import NIOCore

/// The form a phone's file picker posts to the claim-photo route: `photo` (JPEG, PNG or HEIC)
/// and, for photos without GPS, the browser's `latitude`, `longitude` and `accuracy`.
///
/// The fuzz harness `Fuzz/Sources/FuzzMultipart` compiles this very file, so what it parses is
/// what the server parses.
///
/// ```swift
/// guard let boundary = PhotoForm.boundary(contentType: type),
///       let form = PhotoForm.decode(body, boundary: boundary) else { throw … }
/// ```
struct PhotoForm: Decodable {
    var photo: Data
    var latitude: String?
    var longitude: String?
    var accuracy: String?

    /// The boundary a `multipart/form-data` Content-Type names; nil for any other type.
    static func boundary(contentType type: String) -> String? {
        guard type.lowercased().hasPrefix("multipart/form-data"),
              let boundary = type.components(separatedBy: "boundary=").last?
                .trimmingCharacters(in: CharacterSet(charactersIn: "\" ")), !boundary.isEmpty, boundary != type
        else { return nil }
        return boundary
    }

    /// The form in `body`, or nil when it is not a well-formed form with a `photo` part.
    static func decode(_ body: ByteBuffer, boundary: String) -> PhotoForm? {
        let safe = body.withUnsafeReadableBytes { partHeaderNamesAreASCII($0, boundary: boundary) }
        guard safe else { return nil }
        return try? FormDataDecoder().decode(PhotoForm.self, from: body, boundary: boundary)
    }

    /// False when a part's header name holds a byte above 0x7F. multipart-kit 4.7.1 looks each
    /// header-name byte up in a 128-entry table, so such a byte traps and takes the whole server
    /// down with it (found by the multipart fuzz harness). Header names are ASCII tokens, so
    /// refusing these forms loses nothing. The parser reads header names only after
    /// `--BOUNDARY` CR LF; names run to `:` (or CR), lines end at CR, an empty line ends them.
    /// Linear time: each CR LF is checked against the delimiter backwards, and a boundary holds
    /// no CR, so no byte is compared for two of them.
    static func partHeaderNamesAreASCII(_ bytes: UnsafeRawBufferPointer, boundary: String) -> Bool {
        let delimiter = Array("--\(boundary)".utf8)
        let cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n"), colon = UInt8(ascii: ":")
        func delimiterEnds(at end: Int) -> Bool {
            guard end >= delimiter.count else { return false }
            return delimiter.indices.reversed().allSatisfy { bytes[end - delimiter.count + $0] == delimiter[$0] }
        }
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == cr, bytes[i + 1] == lf, delimiterEnds(at: i) else { i += 1; continue }
            i += 2
            while i < bytes.count, bytes[i] != cr {   // header lines, up to an empty one
                while i < bytes.count, bytes[i] != colon, bytes[i] != cr {
                    if bytes[i] > 0x7F { return false }
                    i += 1
                }
                while i < bytes.count, bytes[i] != cr { i += 1 }
                i += 2   // CR LF
            }
        }
        return true
    }
}
