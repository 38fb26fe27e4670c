import Crypto

/// The key a hunt's codes are signed with. It lives in the data directory and nowhere else.
///
/// ```swift
/// let secret = HuntSecret.random()
/// let payload = CacheCode.payload(hunt: "DEMO", cache: "A1", secret: secret)
/// ```
public struct HuntSecret: Sendable {
    /// 256 bits, HMAC-SHA256's block-size-friendly key length.
    public static let byteCount = 32

    /// The bytes to store, for the data directory only.
    public let bytes: [UInt8]

    /// A secret from stored bytes; nil unless there are exactly ``byteCount`` of them.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == Self.byteCount else { return nil }
        self.bytes = Array(bytes)
    }

    /// A new secret from the system's secure random source.
    public static func random() -> HuntSecret {
        HuntSecret(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })!
    }

    // Swift-crypto's key type is not Sendable here, so it is made where it is used.
    var key: SymmetricKey { SymmetricKey(data: bytes) }
}

extension HuntSecret: CustomStringConvertible, CustomDebugStringConvertible {
    // A secret printed by accident shows nothing.
    public var description: String { "HuntSecret(redacted)" }
    public var debugDescription: String { description }
}
