/// RFC 4648 base32 without padding: upper-case letters and 2–7, all inside QR alphanumeric mode.
enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes, or nil when a character is outside the alphabet or leftover bits are not zero.
    static func decode(_ text: Substring) -> [UInt8]? {
        var out: [UInt8] = []
        var buffer: UInt32 = 0, bits = 0
        for c in text.utf8 {
            let v = values[Int(c)]
            guard v != 0xFF else { return nil }
            buffer = (buffer << 5) | UInt32(v)
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt32(bits)) & 0xFF))
            }
        }
        guard buffer & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return out
    }
}
