import Foundation
import Crypto

/// What a printed QR holds: the hunt, the cache and a MAC made with the hunt's secret.
///
/// Version 1 reads `GQ1.DEMO.A1.K3J5M2QX7P4RT6WA`: the version, the hunt id, the cache id and
/// 80 bits of HMAC-SHA256 over `GQ1.DEMO.A1`, in base32. Every character is in QR alphanumeric
/// mode, so the longest code (16-character hunt, 12-character cache) fits version 3 at level M.
/// The URL form puts the same code after a hunt server's claim path, all upper case:
/// `HTTPS://192.168.1.20:8443/C/GQ1.DEMO.A1.K3J5M2QX7P4RT6WA`.
///
/// ```swift
/// let payload = CacheCode.payload(hunt: "DEMO", cache: "A1", secret: secret)
/// let code = try CacheCode(parsing: payload)      // structure only
/// code.isAuthentic(with: secret)                  // the MAC, in constant time
/// ```
public struct CacheCode: Sendable, Equatable {
    public static let currentVersion = 1
    /// The prefix that says "a GeoQR code": `GQ` then the version number.
    public static let prefix = "GQ"
    /// Path on the hunt server that the URL form points at.
    public static let claimPath = "/C/"
    /// 80 bits: above the 64 the design asks for, and 16 base32 characters.
    public static let macByteCount = 10
    static let macCharacterCount = 16

    public let version: Int
    public let huntID: String
    public let cacheID: String
    let mac: [UInt8]

    /// The payload for a cache, in its short form or, with `baseURL`, its URL form.
    public static func payload(hunt: String, cache: String, secret: HuntSecret, baseURL: String? = nil) -> String {
        let body = signedPart(version: currentVersion, hunt: hunt.uppercased(), cache: cache.uppercased())
        let code = body + "." + Base32.encode(mac(for: body, secret: secret))
        guard let baseURL else { return code }
        return urlPrefix(baseURL) + code
    }

    /// `https://host:8443/` → `HTTPS://HOST:8443/C/`.
    public static func urlPrefix(_ baseURL: String) -> String {
        var base = baseURL.uppercased()
        while base.hasSuffix("/") { base.removeLast() }
        return base + claimPath
    }

    /// Reads the structure of a payload (either form); says nothing yet about the MAC.
    public init(parsing payload: String) throws(CodeRejection) {
        let code = Self.codePart(of: payload)
        let fields = code.split(separator: ".", omittingEmptySubsequences: false)
        // The version is spelled one way only ("GQ1", never "GQ01" or "GQ+1"), so that one
        // signed code has exactly one payload.
        guard let head = fields.first, head.hasPrefix(Self.prefix),
              let version = Int(head.dropFirst(Self.prefix.count)),
              head == "\(Self.prefix)\(version)" else { throw .malformed }
        guard version == Self.currentVersion else { throw .unknownVersion(version) }
        guard fields.count == 4 else { throw .malformed }
        let hunt = String(fields[1]), cache = String(fields[2])
        guard case .success = CodeAlphabet.canonicalID(hunt, maxLength: CodeAlphabet.maxHuntIDLength),
              case .success = CodeAlphabet.canonicalID(cache, maxLength: CodeAlphabet.maxCacheIDLength),
              hunt == hunt.uppercased(), cache == cache.uppercased(),
              fields[3].count == Self.macCharacterCount,
              let mac = Base32.decode(fields[3]), mac.count == Self.macByteCount
        else { throw .malformed }
        self.version = version
        self.huntID = hunt
        self.cacheID = cache
        self.mac = mac
    }

    /// True when the MAC was made with `secret`. Compares every byte whatever the first
    /// difference, so the time taken does not tell a forger how much of a guess was right.
    public func isAuthentic(with secret: HuntSecret) -> Bool {
        let expected = Self.mac(for: Self.signedPart(version: version, hunt: huntID, cache: cacheID), secret: secret)
        return constantTimeEqual(expected, mac)
    }

    private static func signedPart(version: Int, hunt: String, cache: String) -> String {
        "\(prefix)\(version).\(hunt).\(cache)"
    }

    private static func mac(for body: String, secret: HuntSecret) -> [UInt8] {
        let full = HMAC<SHA256>.authenticationCode(for: Array(body.utf8), using: secret.key)
        return Array(full.prefix(macByteCount))
    }

    /// The code itself: the whole payload, or what follows the claim path in the URL form.
    private static func codePart(of payload: String) -> Substring {
        let trimmed = payload.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.contains("://") else { return Substring(trimmed) }
        guard let range = trimmed.range(of: claimPath, options: [.backwards, .caseInsensitive]) else {
            return ""
        }
        return trimmed[range.upperBound...]
    }
}

/// Equal length and equal bytes, in time that depends only on the length.
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for i in a.indices { difference |= a[i] ^ b[i] }
    return difference == 0
}
