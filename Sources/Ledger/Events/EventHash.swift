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

    /// The hash of a format-2 event (``EventSeal``): the link hash of its content hash, so that
    /// an event withheld whole from a published ledger (a PIN check) still has a hash anyone can
    /// recompute from its seq, its previous hash and its content hash. `body` is the body as the
    /// hash covers it: its private part, if any, as a commitment.
    public static func computeSealed(seq: Int64, timeMs: Int64, hunt: String, actor: String,
                                     kind: String, body: String, prevHash: String) -> String {
        link(seq: seq, content: content(timeMs: timeMs, hunt: hunt, actor: actor, kind: kind, body: body), prevHash: prevHash)
    }

    /// SHA-256 of a format-2 event's own fields (length-prefixed as in ``compute``), hex.
    public static func content(timeMs: Int64, hunt: String, actor: String, kind: String, body: String) -> String {
        digest([String(timeMs), hunt, actor, kind, body])
    }

    /// A format-2 event's hash: SHA-256 of `geoqr-ledger-2`, the previous hash, the seq and
    /// the content hash, length-prefixed. The first field keeps it apart from every format-1 hash.
    public static func link(seq: Int64, content: String, prevHash: String) -> String {
        digest(["geoqr-ledger-2", prevHash, String(seq), content])
    }

    private static func digest(_ fields: [String]) -> String {
        var hasher = SHA256()
        for var field in fields {
            var prefix = String(field.utf8.count) + ":"
            prefix.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            field.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        }
        return hex(hasher.finalize())
    }

    /// The hash `event` should carry, given its own `prevHash`, by the rule of its format: a
    /// format-2 body's private part, if the body holds it, is first replaced by its commitment. A
    /// `player-joined` event written before migration "v3: credentials outside the chain" needs
    /// its PIN hash put back in its body first (`ChainedPINHash`), as `LedgerVerifier` does.
    public static func expected(for event: LedgerEvent) -> String {
        let reading = EventSeal.read(event.body)
        guard reading.format == EventSeal.format else {
            return compute(seq: event.seq, timeMs: event.timeMs, hunt: event.hunt, actor: event.actor,
                           kind: event.kind, body: event.body, prevHash: event.prevHash)
        }
        return computeSealed(seq: event.seq, timeMs: event.timeMs, hunt: event.hunt, actor: event.actor,
                             kind: event.kind, body: reading.hashedBody, prevHash: event.prevHash)
    }
}
