/// Appends JSON tokens to a byte buffer, putting the commas in: for the few values written
/// so often that `JSONEncoder`'s reflection costs more than everything else done for them
/// (the ledger's event bodies, the server's most polled answers). Strings are escaped as
/// `JSONEncoder` escapes them (`/` left alone); a Double is written as its shortest
/// description without a trailing `.0`, as `JSONEncoder` writes it.
///
/// ```swift
/// var json = JSONWriter()
/// json.beginObject(); json.key("id"); json.string("A1"); json.endObject()
/// json.text   // {"id":"A1"}
/// ```
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    public init() { bytes.reserveCapacity(512) }

    public var text: String { String(decoding: bytes, as: UTF8.self) }

    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// A key; its value follows. Where the bytes must equal `JSONEncoder`'s with `.sortedKeys`
    /// (the ledger's event bodies), keys must come in sorted order: the caller's duty.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    public mutating func string(_ value: String) {
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

    /// A value written elsewhere, as it is: `json` must be one complete JSON value.
    public mutating func raw(_ json: [UInt8]) { separate(); bytes.append(contentsOf: json); needsComma = true }

    public mutating func number(_ value: Int) { separate(); bytes.append(contentsOf: String(value).utf8); needsComma = true }

    /// As `JSONEncoder` writes a Double: its shortest description, without a trailing `.0`.
    public mutating func number(_ value: Double) {
        separate()
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) { separate(); bytes.append(contentsOf: (value ? "true" : "false").utf8); needsComma = true }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}

