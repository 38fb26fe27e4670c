import Foundation
import Hummingbird
import NIOCore

extension PhotoForm {
    /// The boundary a `multipart/form-data` Content-Type names; nil for any other type (read by
    /// Hummingbird's `MediaType`) or a boundary ``boundaryParameter(in:)`` refuses.
    static func boundary(contentType type: String) -> String? {
        guard let media = MediaType(from: type), media.isType(.multipartForm) else { return nil }
        return boundaryParameter(in: type)
    }

    /// The form in a request body (``parse(_:boundary:)``).
    static func decode(_ body: ByteBuffer, boundary: String) throws(Problem) -> PhotoForm {
        try body.withUnsafeReadableBytes { bytes throws(Problem) in try parse(bytes, boundary: boundary) }
    }
}
