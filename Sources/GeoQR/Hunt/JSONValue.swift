import Foundation

/// A JSON document as plain values, so that a hunt file can be checked field by field with
/// messages that name the field, rather than failing on the first type mismatch.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Parses JSON text. Foundation's JSONSerialization is several times faster than decoding
    /// an enum through `Decodable`, which tries each case in turn and throws on every miss.
    init(parsing data: Data) throws {
        self = JSONValue(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
    }

    private init(_ any: Any) {
        switch any {
        case let s as String: self = .string(s)
        case let a as [Any]: self = .array(a.map(JSONValue.init))
        case let o as [String: Any]: self = .object(o.mapValues(JSONValue.init))
        case let n as NSNumber:
            // JSON's true and false arrive as NSNumber too; their type code is "c" (char).
            self = String(cString: n.objCType) == "c" ? .bool(n.boolValue) : .number(n.doubleValue)
        default: self = .null
        }
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
