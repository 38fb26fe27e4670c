import Crypto

/// The short code printed on every card under its QR, for a phone that cannot scan: the cache
/// id, then 8 characters of a MAC made with the hunt's secret, `A1-7KQ2-M9XD`.
///
/// The 8 characters are Crockford's base32 (no I, L, O or U, so nothing reads as another
/// character; when typed, O reads as 0 and I and L as 1) of the first 40 bits of
/// HMAC-SHA256 over `GQT1.HUNT.CACHE`. That MAC is its own (a different text from the QR's),
/// so the typed code gives nothing away about the QR's. 40 bits is too few to stand alone
/// against a computer, and enough against a person typing: the server counts wrong typed
/// codes towards a lockout (``PINPolicy/typedCodes``), five per 15 minutes, so a guesser
/// needs on average 2³⁹ ÷ 5 quarter-hours.
///
/// ```swift
/// let text = TypedCode.text(hunt: "DEMO", cache: "A1", secret: secret)   // "A1-7KQ2-M9XD"
/// let typed = TypedCode(typed: "a1 7kq2m9xd")                          // forgiving of case and spaces
/// typed?.isAuthentic(hunt: "DEMO", secret: secret)                       // true, in constant time
/// ```
public struct TypedCode: Sendable, Equatable {
    public let cacheID: String
    let mac: [UInt8]

    init(cacheID: String, mac: [UInt8]) {
        self.cacheID = cacheID
        self.mac = mac
    }

    static let macByteCount = 5
    static let macCharacterCount = 8

    /// The typed code of a cache, grouped in fours after the cache id.
    public static func text(hunt: String, cache: String, secret: HuntSecret) -> String {
        TypedCode(cacheID: cache.uppercased(), mac: mac(hunt: hunt.uppercased(), cache: cache.uppercased(), secret: secret)).text
    }

    /// Reads a typed code as printed: the cache id, a hyphen or space, and the 8 characters
    /// (a hyphen or space between their halves optional), any case. Strict enough that no
    /// other text (a sentence, another QR's payload) reads as one.
    public init?(reading text: String) {
        self.init(reading: text, strict: true)
    }

    /// Reads what a player typed, forgiving more: no separator at all is fine too (the MAC's
    /// length tells where the cache id, which may hold hyphens itself, ends). For the box a
    /// player types into, where a typed code is the only thing expected.
    public init?(typed text: String) {
        self.init(reading: text, strict: false)
    }

    private init?(reading text: String, strict: Bool) {
        let words = text.uppercased().split(whereSeparator: \.isWhitespace)
        var symbols: [Character] = [], rest = Substring(words.joined(separator: "-"))
        while symbols.count < Self.macCharacterCount, let last = rest.last {
            rest = rest.dropLast()
            if last == "-", symbols.count == 4 { continue }
            symbols.insert(last, at: 0)
        }
        guard symbols.count == Self.macCharacterCount, rest.last == "-" || !strict else { return nil }
        if rest.last == "-" { rest = rest.dropLast() }
        guard case .success(let id) = CodeAlphabet.canonicalID(String(rest), maxLength: CodeAlphabet.maxCacheIDLength),
              let mac = Crockford.decode(symbols), mac.count == Self.macByteCount else { return nil }
        self.cacheID = id
        self.mac = mac
    }

    /// The code as printed, whatever way it was typed (`A1-7KQ2-M9XD`).
    public var text: String {
        let symbols = Crockford.encode(mac)
        return "\(cacheID)-\(symbols.prefix(4))-\(symbols.dropFirst(4))"
    }

    /// True when the MAC is this hunt's for this cache; every byte is compared whatever the
    /// first difference.
    public func isAuthentic(hunt: String, secret: HuntSecret) -> Bool {
        constantTimeEqual(Self.mac(hunt: hunt.uppercased(), cache: cacheID, secret: secret), mac)
    }

    private static func mac(hunt: String, cache: String, secret: HuntSecret) -> [UInt8] {
        let full = HMAC<SHA256>.authenticationCode(for: Array("GQT1.\(hunt).\(cache)".utf8), using: secret.key)
        return Array(full.prefix(macByteCount))
    }
}

/// Crockford's base32: digits and upper-case letters without I, L, O and U. 40 bits are
/// exactly 8 symbols, so there is no padding to handle.
enum Crockford {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    static func encode(_ bytes: [UInt8]) -> String {
        var out = "", buffer: UInt64 = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt64(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int((buffer >> UInt64(bits)) & 31)])
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt64(5 - bits)) & 31)]) }
        return out
    }

    /// The bytes of whole 8-symbol groups; O is read as 0, I and L as 1; nil for anything else.
    static func decode(_ symbols: [Character]) -> [UInt8]? {
        guard symbols.count % 8 == 0 else { return nil }
        var out: [UInt8] = [], buffer: UInt64 = 0, bits = 0
        for symbol in symbols {
            let read: Character = switch symbol { case "O": "0"; case "I", "L": "1"; default: symbol }
            guard let value = alphabet.firstIndex(of: read) else { return nil }
            buffer = (buffer << 5) | UInt64(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((buffer >> UInt64(bits)) & 0xFF))
            }
        }
        return out
    }
}
