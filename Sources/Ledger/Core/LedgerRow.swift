/// A row a store read, by column name: what an act's facts are made of, whichever store read them.
struct LedgerRow: Sendable {
    let columns: [String: Int]
    let values: [LedgerValue]

    /// The column's value; a column the query did not select, or of another type, is a bug in
    /// the act's SQL, and stops the program as GRDB's rows do.
    subscript<T: LedgerValueDecodable>(_ column: String) -> T {
        guard let index = columns[column] else { preconditionFailure("no column \(column) in \(columns.keys.sorted())") }
        guard let value = T.decode(values[index]) else { preconditionFailure("column \(column): \(values[index]) is not a \(T.self)") }
        return value
    }

    /// The columns in the order the query selected them.
    var ordered: [(name: String, value: LedgerValue)] {
        columns.sorted { $0.value < $1.value }.map { ($0.key, values[$0.value]) }
    }
}

/// What a ``LedgerRow`` column can be read as.
protocol LedgerValueDecodable {
    static func decode(_ value: LedgerValue) -> Self?
}

extension String: LedgerValueDecodable {
    static func decode(_ value: LedgerValue) -> String? { if case .text(let v) = value { v } else { nil } }
}
extension Int64: LedgerValueDecodable {
    static func decode(_ value: LedgerValue) -> Int64? { if case .integer(let v) = value { v } else { nil } }
}
extension Int: LedgerValueDecodable {
    static func decode(_ value: LedgerValue) -> Int? { if case .integer(let v) = value { Int(v) } else { nil } }
}
extension Double: LedgerValueDecodable {
    static func decode(_ value: LedgerValue) -> Double? {
        switch value { case .real(let v): v; case .integer(let v): Double(v); default: nil }
    }
}
extension Bool: LedgerValueDecodable {
    static func decode(_ value: LedgerValue) -> Bool? { if case .integer(let v) = value { v != 0 } else { nil } }
}
extension Optional: LedgerValueDecodable where Wrapped: LedgerValueDecodable {
    static func decode(_ value: LedgerValue) -> Wrapped?? {
        if case .null = value { return .some(nil) }
        return Wrapped.decode(value).map { .some($0) }
    }
}
