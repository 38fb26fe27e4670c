import Foundation
import GeoQR

// The claim answer's one description (``ClaimAnswer/fields``), from which both encoders are
// made: `JSONWriter` for the server, which answers every claim and where reflection cost more
// than the answer (BENCHMARKS.md, "Hunt server"), and `Encodable` for everything else.

/// One value of a JSON answer.
public enum JSONScalar: Sendable, Equatable {
    case string(String)
    case number(Double)
    case integer(Int)
    case bool(Bool)
}

extension ClaimAnswer: Encodable {
    /// Every key the answer has, in order, in English; absent values are left out.
    public var fields: [(key: StaticString, value: JSONScalar)] { fields(in: .en) }

    /// Every key the answer has, in order, with the sentence and the direction in `language`.
    public func fields(in language: Language) -> [(key: StaticString, value: JSONScalar)] {
        var f: [(key: StaticString, value: JSONScalar)] = [
            ("verdict", .string(verdict.rawValue)), ("sentence", .string(sentence.text(in: language))), ("line", .string(line)),
            ("refused", .bool(verdict.isRefusal)), ("offerTypedCode", .bool(verdict.offersTypedCode)),
        ]
        func add(_ key: StaticString, _ value: JSONScalar?) { if let value { f.append((key, value)) } }
        add("payload", payload.map(JSONScalar.string))
        add("cache", cache.map(JSONScalar.string))
        add("cacheName", cacheName.map(JSONScalar.string))
        add("otherHunt", otherHunt.map(JSONScalar.string))
        add("reason", reason.map(JSONScalar.string))
        add("distanceM", distanceM.map(JSONScalar.number))
        add("bearingDeg", bearingDeg.map(JSONScalar.number))
        add("direction", direction.map { .string($0.name(in: language)) })
        add("radiusM", radiusM.map(JSONScalar.number))
        add("allowedM", allowedM.map(JSONScalar.number))
        add("locationSource", locationSource.map { .string($0.rawValue) })
        add("latitude", latitude.map(JSONScalar.number))
        add("longitude", longitude.map(JSONScalar.number))
        add("accuracyM", accuracyM.map(JSONScalar.number))
        add("scanTime", .string(ISOTime.text(scanTime)))
        add("scanTimeSource", .string(scanTimeSource.rawValue))
        add("outcome", outcome.map { .string($0.rawValue) })
        add("find", find.map(JSONScalar.string))
        add("points", points.map(JSONScalar.integer))
        add("firstToFind", firstToFind.map(JSONScalar.bool))
        add("card", card.map(JSONScalar.string))
        add("message", message.map(JSONScalar.string))
        add("lateSeconds", lateSeconds.map(JSONScalar.integer))
        return f
    }

    /// The answer as a JSON object, with `extra` keys (a file name, a frame number) first, its
    /// sentence and direction in `language`.
    public func write(to json: inout JSONWriter, extra: [(key: StaticString, value: JSONScalar)] = [],
                      in language: Language = .en) {
        json.beginObject()
        for (key, value) in extra + fields(in: language) {
            json.key(key)
            switch value {
            case .string(let s): json.string(s)
            case .number(let n): json.number(n)
            case .integer(let i): json.number(i)
            case .bool(let b): json.bool(b)
            }
        }
        json.endObject()
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: FieldKey.self)
        for (key, value) in fields {
            let k = FieldKey(stringValue: "\(key)")
            switch value {
            case .string(let s): try c.encode(s, forKey: k)
            case .number(let n): try c.encode(n, forKey: k)
            case .integer(let i): try c.encode(i, forKey: k)
            case .bool(let b): try c.encode(b, forKey: k)
            }
        }
    }
}

/// A key known only when encoding.
struct FieldKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Times in answers: ISO 8601 in UTC to the second (`2026-11-28T09:41:07Z`), written without a
/// formatter object, which is not safe to share between threads on Linux.
public enum ISOTime {
    public static func text(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
