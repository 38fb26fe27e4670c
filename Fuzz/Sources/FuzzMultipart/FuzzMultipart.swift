import Foundation

// The claim-photo form as `ClaimController.photoForm` reads it: the input's first line is the
// Content-Type header, the rest the body. `PhotoForm.swift` beside this file is a link to the
// server's own (Sources/HuntServer/Controllers/PhotoForm.swift): the same boundary parameter
// rule and the same one-pass parser with its limits. (Which media type it is, Hummingbird's
// `MediaType` says in the server; that is not fuzzed here, so the harness builds without
// Hummingbird and NIO.)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start, count: start == nil ? 0 : count)
    let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
    let header = String(decoding: bytes[..<newline], as: UTF8.self)
    guard let boundary = PhotoForm.boundaryParameter(in: header) else { return 0 }
    let body = Array(bytes[min(newline + 1, bytes.count)...])
    if let form = try? body.withUnsafeBytes({ raw throws(PhotoForm.Problem) in try PhotoForm.parse(raw, boundary: boundary) }) {
        // What the parser promises: its limits hold for every form it returns.
        for field in [form.latitude, form.longitude, form.accuracy] {
            precondition((field?.utf8.count ?? 0) <= PhotoForm.maxFieldBytes, "a field past its limit")
        }
        precondition(form.photo.count < body.count, "a photo larger than its form")
    }
    return 0
}
