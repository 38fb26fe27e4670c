import Foundation

/// Writes a table as CSV the way RFC 4180 describes it: a header row, CRLF after every row,
/// and a field in double quotes (its quotes doubled) when it holds a comma, a quote, a CR or
/// an LF. What the game master's spreadsheet opens: `geoqr results` and the control room's
/// downloads write with it.
///
/// Player names and reasons are typed by players and game masters, so a text field that a
/// spreadsheet would run as a formula (it begins with `=`, `+`, `-`, `@`, a tab or a CR) is
/// written with a `'` in front, as OWASP advises; a field that is a plain number, such as
/// `-5`, is written as it is.
///
/// ```swift
/// var csv = CSVWriter(header: ["player", "name", "points"])
/// csv.row(["P1", "Ada, the first", "15"])
/// csv.row(["P2", "=1+1", "-5"])
/// csv.text   // "player,name,points\r\nP1,\"Ada, the first\",15\r\nP2,'=1+1,-5\r\n"
/// ```
public struct CSVWriter: Sendable {
    public private(set) var text: String

    /// A table whose first row is `header`.
    public init(header: [String]) {
        text = ""
        row(header)
    }

    /// Adds a row: one field per column, in the header's order.
    public mutating func row(_ fields: [String]) {
        text += Self.line(fields)
    }

    /// One row with its CRLF, for a table written as it is read (`geoqr ledger export`).
    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",") + "\r\n"
    }

    /// One field, made safe for a spreadsheet and quoted when it must be.
    static func field(_ raw: String) -> String {
        var value = raw
        if let first = value.unicodeScalars.first, formulaStarts.contains(first), Double(value) == nil {
            value = "'" + value
        }
        guard value.unicodeScalars.contains(where: { needsQuotes.contains($0) }) else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static let formulaStarts: Set<Unicode.Scalar> = ["=", "+", "-", "@", "\t", "\r"]
    private static let needsQuotes: Set<Unicode.Scalar> = [",", "\"", "\r", "\n"]
}
