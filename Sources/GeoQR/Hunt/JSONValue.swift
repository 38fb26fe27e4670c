import Foundation

/// A JSON document as plain values, so that a hunt file can be checked field by field with
/// messages that name the field, rather than failing on the first type mismatch.
enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let n = try? c.decode(Double.self) { self = .number(n) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    /// How the value reads in an error message: short, and in JSON's own spelling.
    var shortDescription: String {
        switch self {
        case .null: "null"
        case .bool(let b): String(b)
        case .number(let n): formatNumber(n)
        case .string(let s): s.count > 40 ? "\"\(s.prefix(40))…\"" : "\"\(s)\""
        case .array: "an array"
        case .object: "an object"
        }
    }
}
