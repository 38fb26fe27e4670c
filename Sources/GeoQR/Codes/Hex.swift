/// Lower-case hexadecimal, two digits a byte: how digests and tokens are written.
/// (`String(format: "%02x")` a byte at a time cost more than the SHA-256 it printed, on the
/// server's path that checks every request's token.)
///
/// ```swift
/// SHA256.hash(data: bytes).hex   // "9f86d081…"
/// ```
extension Sequence<UInt8> {
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
