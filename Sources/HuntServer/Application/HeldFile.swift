import Foundation
import Hummingbird

/// A small file the server holds in memory from start to stop (the built-in web app, Leaflet, a
/// phrase catalogue), answered with its type, a cache lifetime and an ETag, so a phone that has
/// it asks only whether it changed (304); a HEAD request gets the headers alone.
///
/// ```swift
/// let css = HeldFile(bytes: data, type: "text/css; charset=utf-8", cacheControl: "public, max-age=604800")
/// return css.response(to: request)
/// ```
struct HeldFile: Sendable {
    let bytes: [UInt8]
    let type: String
    let cacheControl: String
    /// A hash of the bytes (FNV-1a, 64 bits): the same file gives the same tag across restarts.
    let etag: String

    init(bytes: some Sequence<UInt8>, type: String, cacheControl: String) {
        self.bytes = Array(bytes)
        self.type = type
        self.cacheControl = cacheControl
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in self.bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        etag = "\"" + String(hash, radix: 16) + "\""
    }

    func response(to request: Request) -> Response {
        var headers: HTTPFields = [.contentType: type, .cacheControl: cacheControl, .eTag: etag]
        if let asked = request.headers[.ifNoneMatch], asked.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag }) {
            headers[.contentType] = nil
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(bytes.count)
        if request.method == .head { return Response(status: .ok, headers: headers) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}
