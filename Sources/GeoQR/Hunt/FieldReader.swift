import Foundation

/// Reads typed fields out of a JSON object and records, rather than throws, what is wrong with
/// them, so one pass over a hunt file reports every problem with its path and value.
final class FieldReader {
    let file: String
    private(set) var problems: [HuntProblem] = []

    init(file: String) { self.file = file }

    func fail(_ path: String, _ message: String, severity: HuntProblem.Severity = .error) {
        problems.append(HuntProblem(file: file, path: path, message: message, severity: severity))
    }

    func join(_ base: String, _ key: String) -> String { base.isEmpty ? key : "\(base).\(key)" }

    func object(_ v: JSONValue, at path: String, what: String) -> [String: JSONValue]? {
        if case .object(let o) = v { return o }
        fail(path, "\(v.shortDescription) is not \(what)")
        return nil
    }

    func array(_ v: JSONValue, at path: String) -> [JSONValue]? {
        if case .array(let a) = v { return a }
        fail(path, "\(v.shortDescription) is not an array")
        return nil
    }

    func rejectUnknown(_ o: [String: JSONValue], allowed: Set<String>, at path: String) {
        for key in o.keys.sorted() where !allowed.contains(key) {
            fail(join(path, key), "is not a field here (known: \(allowed.filter { $0 != "$schema" }.sorted().joined(separator: ", ")))")
        }
    }

    func text(_ o: [String: JSONValue], _ key: String, at base: String, required: Bool = true) -> String? {
        let path = join(base, key)
        switch o[key] {
        case nil, .null?:
            if required { fail(path, "is missing") }
            return nil
        case .string(let s)?:
            if required, s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { fail(path, "is empty"); return nil }
            return s
        case let v?:
            fail(path, "\(v.shortDescription) is not a string")
            return nil
        }
    }

    func id(_ o: [String: JSONValue], _ key: String, at base: String, maxLength: Int) -> String? {
        guard let raw = text(o, key, at: base) else { return nil }
        switch CodeAlphabet.canonicalID(raw, maxLength: maxLength) {
        case .success(let id): return id
        case .failure(let problem):
            fail(join(base, key), "\"\(raw)\" \(problem)")
            return nil
        }
    }

    func bool(_ o: [String: JSONValue], _ key: String, at base: String) -> Bool? {
        switch o[key] {
        case nil, .null?: return nil
        case .bool(let b)?: return b
        case let v?: fail(join(base, key), "\(v.shortDescription) is not true or false"); return nil
        }
    }

    func number(_ o: [String: JSONValue], _ key: String, at base: String,
                range: ClosedRange<Double>, integer: Bool = false) -> Double? {
        let path = join(base, key)
        switch o[key] {
        case nil, .null?: return nil
        case .number(let n)?:
            if integer, n != n.rounded() { fail(path, "\(formatNumber(n)) is not a whole number"); return nil }
            guard range.contains(n) else {
                fail(path, "\(formatNumber(n)) is out of range (\(formatNumber(range.lowerBound))…\(formatNumber(range.upperBound)))")
                return nil
            }
            return n
        case let v?:
            fail(path, "\(v.shortDescription) is not a number")
            return nil
        }
    }

    func radius(_ o: [String: JSONValue], _ key: String, at base: String) -> Double? {
        guard let r = number(o, key, at: base, range: -Double.infinity...HuntParser.maxRadius) else { return nil }
        guard r > 0 else { fail(join(base, key), "\(formatNumber(r)) is not a radius (metres, more than 0)"); return nil }
        return r
    }

    /// Difficulty and terrain: 1 to 5 in steps of 0.5, as geocaching rates them.
    func rating(_ o: [String: JSONValue], _ key: String, at base: String) -> Double? {
        guard let v = number(o, key, at: base, range: 1...5) else { return nil }
        guard (v * 2) == (v * 2).rounded() else {
            fail(join(base, key), "\(formatNumber(v)) is not a rating (1 to 5 in steps of 0.5)")
            return nil
        }
        return v
    }

    /// A latitude or longitude as decimal degrees (number or string) or the geocaching form.
    func axis(_ o: [String: JSONValue], _ key: String, at base: String, isLatitude: Bool) -> Double? {
        let path = join(base, key)
        let value: Double
        switch o[key] {
        case nil, .null?:
            fail(path, "is missing")
            return nil
        case .number(let n)?:
            value = n
        case .string(let s)?:
            if let n = Double(s.trimmingCharacters(in: .whitespaces)) {
                value = n
            } else {
                do { value = try Coordinate.parseAxis(s, isLatitude: isLatitude) } catch {
                    let example = isLatitude ? "N 40° 37.818'" : "W 008° 39.450'"
                    fail(path, "\"\(s)\" is not a \(isLatitude ? "latitude" : "longitude") (decimal degrees, or like \(example))")
                    return nil
                }
            }
        case let v?:
            fail(path, "\(v.shortDescription) is not a \(isLatitude ? "latitude" : "longitude")")
            return nil
        }
        let limit: Double = isLatitude ? 90 : 180
        guard value.isFinite, abs(value) <= limit else {
            fail(path, "\(formatNumber(value)) is not a \(isLatitude ? "latitude" : "longitude") (-\(Int(limit))…\(Int(limit)))")
            return nil
        }
        return value
    }

    func date(_ o: [String: JSONValue], _ key: String, at base: String) -> Date? {
        guard let s = text(o, key, at: base, required: false) else { return nil }
        if let d = Self.parseISO(s) { return d }
        fail(join(base, key), "\"\(s)\" is not a time (ISO 8601 with a zone, like 2026-11-28T09:00:00Z)")
        return nil
    }

    static func parseISO(_ s: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let d = plain.date(from: s) { return d }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: s)
    }

    func isoString(_ d: Date) -> String { ISO8601DateFormatter().string(from: d) }
}
