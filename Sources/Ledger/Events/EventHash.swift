import Crypto
import Foundation

/// The hash chain: each event's hash covers the previous hash and all of its own fields, each
/// length-prefixed so that no two different events serialize to the same bytes.
///
/// ```swift
/// let hash = EventHash.compute(seq: 1, timeMs: 0, hunt: "DEMO", actor: "gm",
///                              kind: "cache-disabled", body: "{}", prevHash: LedgerEvent.genesisHash)
/// ```
public enum EventHash {
    /// SHA-256 of the event's canonical bytes, lower-case hex.
    public static func compute(seq: Int64, timeMs: Int64, hunt: String, actor: String,
                               kind: String, body: String, prevHash: String) -> String {
        var hasher = SHA256()
        for var field in [prevHash, String(seq), String(timeMs), hunt, actor, kind, body] {
            var prefix = String(field.utf8.count) + ":"
            prefix.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            field.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        return hex(hasher.finalize())
    }

    /// Lower-case hex; `String(format:)` per byte cost more than the hash itself.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The hash `event` should carry, given its own `prevHash`. A `player-joined` event written
    /// before migration "v3: credentials outside the chain" needs its PIN hash put back in its
    /// body first (`ChainedPINHash`), as `LedgerVerifier` does.
    public static func expected(for event: LedgerEvent) -> String {
        compute(seq: event.seq, timeMs: event.timeMs, hunt: event.hunt, actor: event.actor,
                kind: event.kind, body: event.body, prevHash: event.prevHash)
    }
}
