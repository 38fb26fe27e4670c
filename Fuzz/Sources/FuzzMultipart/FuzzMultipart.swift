import Foundation
import NIOCore

// The claim-photo form as `ClaimController.photoForm` reads it: the input's first line is the
// Content-Type header, the rest the body. `PhotoForm.swift` beside this file is a link to the
// server's own (Sources/HuntServer/Controllers/PhotoForm.swift): the same boundary rule, the
// same guard, the same multipart-kit decoder.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: start == nil ? 0 : count)
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    let header = String(decoding: bytes[..<newline], as: UTF8.self)
    guard let boundary = PhotoForm.boundary(contentType: header) else { return 0 }
    let body = ByteBuffer(bytes: bytes[min(newline + 1, bytes.count)...])
    if let form = PhotoForm.decode(body, boundary: boundary) {
        _ = (form.photo.count, form.latitude.flatMap(Double.init), form.longitude.flatMap(Double.init),
             form.accuracy.flatMap(Double.init))
    }
    return 0
}
