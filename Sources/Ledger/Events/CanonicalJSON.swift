import Foundation
import GeoQR

/// The ledger's one JSON form (compact, keys sorted, times in milliseconds since 1970),
/// written by hand for the bodies on the hot path: `JSONEncoder` took about 100 µs a find,
/// more than everything else the writer does for it. The bytes are the ones `JSONEncoder`
/// writes with ``BodyCoding``'s settings (a test compares them), so a body reads the same
/// whichever wrote it; and since the hash covers the stored text, the chain never depends on
/// which did.
protocol CanonicalJSONBody {
    /// Writes the value as one JSON object, keys in sorted order.
    func write(to json: inout CanonicalJSONWriter)
}

/// Appends JSON tokens to a byte buffer, putting the commas in.
struct CanonicalJSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    init() { bytes.reserveCapacity(512) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// A key; its value follows. Keys must come in sorted order: the caller's duty.
    mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8))
                bytes.append(contentsOf: [hex[Int(byte >> 4)], hex[Int(byte & 0x0f)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func number(_ value: Int) { separate(); bytes.append(contentsOf: String(value).utf8); needsComma = true }

    /// As `JSONEncoder` writes a Double: its shortest description, without a trailing `.0`.
    mutating func number(_ value: Double) {
        separate()
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    mutating func bool(_ value: Bool) { separate(); bytes.append(contentsOf: (value ? "true" : "false").utf8); needsComma = true }

    /// A date as `.millisecondsSince1970` writes it.
    mutating func date(_ value: Date) { number(value.timeIntervalSince1970 * 1000) }

    mutating func body(_ value: some CanonicalJSONBody) { value.write(to: &self) }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}

extension FindRecorded: CanonicalJSONBody {
    func write(to json: inout CanonicalJSONWriter) {
        json.beginObject()
        json.key("awards")
        json.beginArray()
        for award in awards { json.body(award) }
        json.endArray()
        if let card {
            json.key("card")
            json.body(card)
        }
        json.key("claim"); json.body(claim)
        json.key("find"); json.string(find)
        json.key("firstToFind"); json.bool(firstToFind)
        json.endObject()
    }
}

extension ClaimAttempted: CanonicalJSONBody {
    func write(to json: inout CanonicalJSONWriter) {
        json.beginObject()
        json.key("claim"); json.body(claim)
        json.key("verdict"); json.string(verdict.rawValue)
        json.endObject()
    }
}

extension PointsAward: CanonicalJSONBody {
    func write(to json: inout CanonicalJSONWriter) {
        json.beginObject()
        json.key("amount"); json.number(amount)
        json.key("reason"); json.string(reason)
        json.endObject()
    }
}

extension CardGrant: CanonicalJSONBody {
    func write(to json: inout CanonicalJSONWriter) {
        json.beginObject()
        json.key("cache"); json.string(cache)
        json.key("cacheName"); json.string(cacheName)
        json.key("item"); json.string(item)
        json.key("message"); json.string(message)
        json.endObject()
    }
}

extension ClaimRecord: CanonicalJSONBody {
    func write(to json: inout CanonicalJSONWriter) {
        json.beginObject()
        if let cache { json.key("cache"); json.string(cache) }
        json.key("evidence")
        json.beginObject()
        if let exifTime = evidence.exifTime { json.key("exifTime"); json.date(exifTime) }
        if let photo = evidence.photoSHA256 { json.key("photoSHA256"); json.string(photo) }
        json.endObject()
        json.key("hunt"); json.string(hunt)
        if let location {
            json.key("location")
            json.beginObject()
            json.key("lat"); json.number(location.latitude)
            json.key("lon"); json.number(location.longitude)
            json.endObject()
        }
        json.key("method"); json.string(method.rawValue)
        json.key("player"); json.string(player)
        json.key("time"); json.date(time)
        json.key("verdict"); json.string(verdict.rawValue)
        json.endObject()
    }
}
