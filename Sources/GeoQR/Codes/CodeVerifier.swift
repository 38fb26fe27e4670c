/// Why a payload is not a valid code for a hunt.
public enum CodeRejection: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not a GeoQR code at all, or damaged.
    case malformed
    /// A GeoQR code from a format this version does not read.
    case unknownVersion(Int)
    /// A genuine-looking code for another hunt.
    case otherHunt(String)
    /// Names a cache this hunt does not have.
    case unknownCache(String)
    /// The MAC does not match: forged, or made with an old secret.
    case badMAC

    /// Stable, script-friendly name (`bad-mac`, `other-hunt`…).
    public var code: String {
        switch self {
        case .malformed: "malformed"
        case .unknownVersion: "unknown-version"
        case .otherHunt: "other-hunt"
        case .unknownCache: "unknown-cache"
        case .badMAC: "bad-mac"
        }
    }

    public var description: String {
        switch self {
        case .malformed: "not a GeoQR cache code"
        case .unknownVersion(let v): "code format version \(v) is not one this GeoQR reads (it reads \(CacheCode.currentVersion))"
        case .otherHunt(let h): "code is for hunt \(h), not this one"
        case .unknownCache(let c): "code names cache \(c), which this hunt does not have"
        case .badMAC: "code's signature does not match this hunt's secret (forged or altered)"
        }
    }
}

extension Hunt {
    /// The cache a payload is a genuine code for, or why it is not one.
    ///
    /// ```swift
    /// switch hunt.verify(payload, secret: secret) {
    /// case .success(let cache): print("code for \(cache.name)")
    /// case .failure(let why): print("rejected: \(why)")
    /// }
    /// ```
    ///
    /// A typed code (``TypedCode``, `A1-7KQ2-M9XD`) is verified the same way: its MAC first,
    /// then its cache.
    public func verify(_ payload: String, secret: HuntSecret) -> Result<Cache, CodeRejection> {
        let code: CacheCode
        do { code = try CacheCode(parsing: payload) } catch {
            guard error == .malformed, let typed = TypedCode(reading: payload) else { return .failure(error) }
            guard typed.isAuthentic(hunt: id, secret: secret) else { return .failure(.badMAC) }
            guard let cache = cache(id: typed.cacheID) else { return .failure(.unknownCache(typed.cacheID)) }
            return .success(cache)
        }
        guard code.huntID == id else { return .failure(.otherHunt(code.huntID)) }
        // The MAC comes before the cache lookup, so an unknown cache id is reported only for
        // codes this hunt really signed (a cache removed since printing), never for guesses.
        guard code.isAuthentic(with: secret) else { return .failure(.badMAC) }
        guard let cache = cache(id: code.cacheID) else { return .failure(.unknownCache(code.cacheID)) }
        return .success(cache)
    }
}
