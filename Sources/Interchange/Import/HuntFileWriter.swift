import Foundation
import GeoQR

/// Writes a ``Hunt`` as a hunt file (`caches/NAME.json`, the shape `HuntParser` reads and
/// `caches/hunt.schema.json` describes), fields in the order a person reads them: id, name,
/// radius, teams, trails, courses, then caches (each with its challenge). A field at its default
/// is left out.
///
/// ```swift
/// let data = HuntFileWriter.data(hunt, description: "From pq.gpx", schema: "./hunt.schema.json")
/// let again = try HuntParser.parse(data, file: "caches/town.json").hunt   // == hunt
/// ```
public enum HuntFileWriter {
    /// The hunt as pretty JSON; `schema` becomes `$schema` when given.
    public static func data(_ hunt: Hunt, description: String? = nil, schema: String? = nil) -> Data {
        var fields: [(String, OrderedJSON?)] = [
            ("$schema", schema.map(OrderedJSON.string)),
            ("id", .string(hunt.id)),
            ("name", .string(hunt.name)),
            ("description", description.map(OrderedJSON.string)),
            ("radius", .number(hunt.defaultRadius)),
            ("accuracyCap", hunt.accuracyCap == Hunt.standardAccuracyCap ? nil : .number(hunt.accuracyCap)),
        ]
        let iso = ISO8601DateFormatter()
        fields.append(("start", hunt.start.map { .string(iso.string(from: $0)) }))
        fields.append(("end", hunt.end.map { .string(iso.string(from: $0)) }))
        fields.append(("teams", hunt.teams.isEmpty ? nil : .inlineArray(hunt.teams.map(OrderedJSON.string))))
        fields.append(("hintCost", hunt.hintCost == 0 ? nil : .number(Double(hunt.hintCost))))
        fields.append(("offlineGraceMinutes", hunt.offlineGraceMinutes == Hunt.standardOfflineGraceMinutes
                       ? nil : .number(Double(hunt.offlineGraceMinutes))))
        fields.append(("stillOutWarningMinutes", hunt.courses.isEmpty || hunt.stillOutWarningMinutes == Hunt.standardStillOutWarningMinutes
                       ? nil : .number(Double(hunt.stillOutWarningMinutes))))
        if !hunt.trails.isEmpty {
            fields.append(("trails", .array(hunt.trails.map { t in
                .object([("id", .string(t.id)), ("name", .string(t.name)), ("ordered", t.ordered ? .bool(true) : nil),
                         ("caches", .inlineArray(t.cacheIDs.map(OrderedJSON.string)))])
            })))
        }
        if !hunt.courses.isEmpty {
            fields.append(("courses", .array(hunt.courses.map { courseObject($0, iso: iso) })))
        }
        fields.append(("caches", .array(hunt.caches.map(cacheObject))))
        return Data((OrderedJSON.object(fields).render(indent: "") + "\n").utf8)
    }

    private static func cacheObject(_ c: Cache) -> OrderedJSON {
        // Points are left out when they are the default, so editing difficulty later changes them too.
        let defaultPoints = Cache.defaultPoints(difficulty: c.difficulty, terrain: c.terrain)
        return .object([
            ("id", .string(c.id)), ("name", .string(c.name)),
            ("lat", .number(c.coordinate.latitude)), ("lon", .number(c.coordinate.longitude)),
            ("radius", c.radius.map(OrderedJSON.number)),
            ("difficulty", .number(c.difficulty)), ("terrain", .number(c.terrain)),
            ("points", c.points == defaultPoints ? nil : .number(Double(c.points))),
            ("message", c.message.isEmpty ? nil : .string(c.message)),
            ("hint", c.hint.map(OrderedJSON.string)),
            ("challenge", c.challenge.map(challengeObject)),
        ])
    }

    private static func courseObject(_ c: Course, iso: ISO8601DateFormatter) -> OrderedJSON {
        .object([
            ("id", .string(c.id)), ("name", .string(c.name)), ("kind", .string(c.kind.rawValue)),
            ("start", c.start.map(OrderedJSON.string)), ("massStart", c.massStart.map { .string(iso.string(from: $0)) }),
            ("controls", .inlineArray(c.controls.map(OrderedJSON.string))), ("finish", .string(c.finish)),
            ("timeLimitMinutes", c.timeLimit.map { .number($0 / 60) }),
            ("penaltyPerMinute", c.kind == .score ? .number(Double(c.penaltyPerMinute)) : nil),
        ])
    }

    private static func challengeObject(_ c: Challenge) -> OrderedJSON {
        switch c.kind {
        case .question(let prompt, let answers, let choices):
            .object([
                ("question", .string(prompt)),
                ("choices", choices.isEmpty ? nil : .array(choices.map(OrderedJSON.string))),
                ("answers", .array(answers.map(OrderedJSON.string))),
                ("points", .number(Double(c.points))),
                ("penalty", c.penalty == 0 ? nil : .number(Double(c.penalty))),
                ("tries", c.tries == Challenge.standardTries ? nil : .number(Double(c.tries))),
            ])
        case .photo(let task):
            .object([("photo", .string(task)), ("points", .number(Double(c.points)))])
        }
    }
}

/// JSON whose object keys keep the order they were given in (JSONEncoder does not promise it).
/// Fields whose value is nil are left out.
indirect enum OrderedJSON {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([OrderedJSON])
    /// An array written on one line (`["A1", "A2"]`).
    case inlineArray([OrderedJSON])
    case object([(String, OrderedJSON?)])

    func render(indent: String) -> String {
        let inner = indent + "  "
        switch self {
        case .string(let s): return Self.quote(s)
        case .number(let n): return GPXWriter.decimal(n)
        case .bool(let b): return b ? "true" : "false"
        case .inlineArray(let items): return "[" + items.map { $0.render(indent: inner) }.joined(separator: ", ") + "]"
        case .array(let items):
            if items.isEmpty { return "[]" }
            return "[\n" + items.map { inner + $0.render(indent: inner) }.joined(separator: ",\n") + "\n\(indent)]"
        case .object(let fields):
            let present = fields.compactMap { key, value in value.map { (key, $0) } }
            if present.isEmpty { return "{}" }
            return "{\n" + present.map { inner + Self.quote($0.0) + ": " + $0.1.render(indent: inner) }
                .joined(separator: ",\n") + "\n\(indent)}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 { out += String(format: "\\u%04x", scalar.value) } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out + "\""
    }
}
