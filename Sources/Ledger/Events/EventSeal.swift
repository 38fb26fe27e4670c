import Crypto
import Foundation
import GeoQR
import Synchronization

/// Ledger format 2: what a published ledger may show of an event, and what only the game master
/// sees, with one hash chain over both.
///
/// A body's private fields (where a player stood, a report's text, a PIN check) are written in
/// one object under the key `"private"`, with a random salt; the hash covers the body with that
/// object replaced by its commitment, the lower-case hex SHA-256 of the object's bytes as
/// stored. The ledger stores the object itself (the private form); the published export carries
/// the commitment in its place, so anyone can still recompute the hash, and nobody can guess
/// what was committed (the salt). Every format-2 body carries `"v":2`. Bodies written before
/// (format 1) have neither key and keep the hash rule they were written with.
///
/// ```swift
/// let (stored, hashed) = try EventSeal.seal(ClaimAttempted(claim: claim, verdict: .tooFar))
/// // stored: {"claim":{…},"private":{"location":{…},"salt":"…"},"v":2,"verdict":"too-far"}
/// // hashed: {"claim":{…},"private":"9f2c…","v":2,"verdict":"too-far"}
/// assert(EventSeal.hashedBody(of: stored) == hashed)
/// ```
enum EventSeal {
    /// The format this release writes.
    static let format = 2

    /// The body as the ledger stores it, and as its hash covers it (the same text when it has no
    /// private part).
    /// `salt` is asked for only when the body has a private part.
    static func seal(_ value: some Encodable, salt makeSalt: () -> String = randomSalt) throws -> (stored: String, hashed: String) {
        guard let sealed = value as? any SealedBody else {
            let text = try BodyCoding.encode(FormatTwo(body: value))
            return (text, text)
        }
        guard sealed.hasPrivatePart else {
            var json = JSONWriter()
            sealed.writeSealed(to: &json, privatePart: nil)
            return (json.text, json.text)
        }
        let salt = makeSalt()
        var secret = JSONWriter()
        sealed.writePrivate(to: &secret, salt: salt)
        let commitment = EventHash.hex(SHA256.hash(data: secret.bytes))
        var hashed = JSONWriter(), stored = JSONWriter()
        sealed.writeSealed(to: &hashed) { $0.string(commitment) }
        // The stored body is the hashed one with the object itself in place of its commitment.
        sealed.writeSealed(to: &stored) { $0.raw(secret.bytes) }
        return (stored.text, hashed.text)
    }

    /// The salt of the event `seq` that follows `prevHash`: 128 bits of an HMAC-SHA256 of the two
    /// under ``saltKey``, hex. As unguessable as random bits to whoever lacks the key (no one can
    /// try every position or PIN state against a commitment), and the same for the same event
    /// under the same key, so the same acts give the same chain in any store (the differential
    /// test replays them into SQLite and PostgreSQL and compares head hashes).
    static func salt(seq: Int64, prevHash: String) -> String {
        let key = saltKey.withLock { $0 }
        let mac = HMAC<SHA256>.authenticationCode(for: Array("\(seq) \(prevHash)".utf8), using: key)
        return EventHash.hex(Array(mac.prefix(16)))
    }

    /// The key salts are made with: random for each process and never stored. Tests that replay
    /// a ledger set one of their own (``replaySalts(key:)``).
    private static let saltKey = Mutex(SymmetricKey(size: .bits256))

    /// Makes salts from `key` (256 bits' worth of bytes) from now on, in this process: for tests
    /// that compare two stores' chains event by event.
    static func replaySalts(key bytes: [UInt8]) {
        saltKey.withLock { $0 = SymmetricKey(data: bytes) }
    }

    /// 128 random bits, hex.
    static func randomSalt() -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for _ in 0..<2 {
            let word: UInt64 = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return EventHash.hex(bytes)
    }

    /// What a stored or exported body says of its format and private part.
    struct Reading {
        /// 2 when the body carries `"v":2`, else 1.
        var format: Int
        /// The body as the hash covers it: the private object, if present, replaced by its
        /// commitment.
        var hashedBody: String
        /// True when the body held the private object itself (the private form).
        var holdsPrivatePart: Bool
        /// True when the body holds a private part in either form.
        var hasPrivatePart: Bool
    }

    /// Reads the top level of a body (a JSON object). A body that is not one is read as format 1
    /// and left as it is: its hash then decides.
    static func read(_ body: String) -> Reading {
        let bytes = Array(body.utf8)
        var scan = TopLevelScan(bytes)
        guard let members = scan.members() else {
            return Reading(format: 1, hashedBody: body, holdsPrivatePart: false, hasPrivatePart: false)
        }
        var format = 1, hashed = body, holds = false, has = false
        for member in members {
            if member.key == "v", member.value.count == 1, bytes[member.value.lowerBound] == UInt8(ascii: "2") { format = 2 }
            if member.key == "private" {
                has = true
                if bytes[member.value.lowerBound] == UInt8(ascii: "{") {
                    holds = true
                    let commitment = EventHash.hex(SHA256.hash(data: bytes[member.value]))
                    hashed = String(decoding: bytes[..<member.value.lowerBound], as: UTF8.self) + "\"" + commitment + "\""
                        + String(decoding: bytes[member.value.upperBound...], as: UTF8.self)
                }
            }
        }
        return Reading(format: format, hashedBody: hashed, holdsPrivatePart: holds, hasPrivatePart: has)
    }

    /// `read(body).hashedBody`.
    static func hashedBody(of body: String) -> String { read(body).hashedBody }
}

/// A body with fields the published ledger must not show: it writes itself in format 2, keys
/// sorted, with its private fields in one object.
protocol SealedBody: Sendable {
    /// False when this body has nothing to hide (a claim that said no place): it is then written
    /// with no `"private"` key.
    var hasPrivatePart: Bool { get }
    /// The whole body with `"v":2`; `privatePart` writes the value of `"private"` (the object,
    /// or its commitment), and is nil when there is none.
    func writeSealed(to json: inout JSONWriter, privatePart: ((inout JSONWriter) -> Void)?)
    /// The private fields and `salt`, as one object, keys sorted.
    func writePrivate(to json: inout JSONWriter, salt: String)
}

extension SealedBody {
    var hasPrivatePart: Bool { true }
}

/// A body that has nothing private, in format 2: its own keys and `"v":2`.
private struct FormatTwo<Body: Encodable>: Encodable {
    let body: Body

    private enum Key: String, CodingKey { case v }

    func encode(to encoder: any Encoder) throws {
        try body.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(EventSeal.format, forKey: .v)
    }
}

/// The members of a JSON object's top level, as byte ranges of their values, found without
/// parsing the values: strings are skipped with their escapes, nested objects and arrays by
/// depth. Nil when the text is not one object.
private struct TopLevelScan {
    let bytes: [UInt8]
    var i = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func members() -> [(key: String, value: Range<Int>)]? {
        var out: [(key: String, value: Range<Int>)] = []
        guard next() == UInt8(ascii: "{") else { return nil }
        if peek() == UInt8(ascii: "}") { return out }
        while true {
            guard peek() == UInt8(ascii: "\""), let keyRange = skipString() else { return nil }
            let key = String(decoding: bytes[(keyRange.lowerBound + 1)..<(keyRange.upperBound - 1)], as: UTF8.self)
            guard next() == UInt8(ascii: ":") else { return nil }
            let start = i
            guard skipValue() else { return nil }
            out.append((key, start..<i))
            switch next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return i == bytes.count ? out : nil
            default: return nil
            }
        }
    }

    private func peek() -> UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func next() -> UInt8? {
        guard i < bytes.count else { return nil }
        defer { i += 1 }
        return bytes[i]
    }

    /// From an opening quote to past its closing one.
    private mutating func skipString() -> Range<Int>? {
        let start = i
        i += 1
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\\"): i += 2
            case UInt8(ascii: "\""): i += 1; return start..<i
            default: i += 1
            }
        }
        return nil
    }

    private mutating func skipValue() -> Bool {
        guard let first = peek() else { return false }
        if first == UInt8(ascii: "\"") { return skipString() != nil }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            var depth = 0
            while let byte = peek() {
                switch byte {
                case UInt8(ascii: "\""): if skipString() == nil { return false }; continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { i += 1; return true }
                default: break
                }
                i += 1
            }
            return false
        }
        while let byte = peek(), byte != UInt8(ascii: ","), byte != UInt8(ascii: "}") { i += 1 }
        return i > 0
    }
}
