import Foundation

/// A tile source's credit as plain text, the way `GET /api/map` sends it and the map shows it
/// (as text, never as HTML).
///
/// MBTiles files often carry their `attribution` as HTML (`<a href="https://osm.org/copyright">
/// &copy; OpenStreetMap</a>`), and a file from anywhere may carry script: the tags go, the
/// character references are read, spaces are collapsed and the line is bounded.
///
/// ```swift
/// AttributionText.plain(#"<a href="https://osm.org/copyright">&copy; OpenStreetMap</a> contributors"#)
/// // "© OpenStreetMap contributors"
/// AttributionText.plain("<img src=x onerror=alert(1)>Tiles &lt;b&gt;")   // "Tiles <b>" (text)
/// ```
enum AttributionText {
    /// Long enough for any real credit line, short enough for a map's corner.
    static let maxCharacters = 300
    /// What is read of a field: a credit is a line, and a file may hold megabytes there.
    static let maxReadCharacters = 16_384

    /// `html` without its tags and with its character references read, in one line of at most
    /// ``maxCharacters`` characters, from its first ``maxReadCharacters``.
    static func plain(_ html: String) -> String {
        var text = ""
        var inTag = false
        for character in html.prefix(maxReadCharacters) {
            if inTag {
                if character == ">" { inTag = false; text.append(" ") }
            } else if character == "<" {
                inTag = true
            } else {
                text.append(character)
            }
        }
        let decoded = decodeReferences(text)
        let words = decoded.split(whereSeparator: { $0.isWhitespace || $0.unicodeScalars.allSatisfy(isInvisible) })
        var line = words.joined(separator: " ")
        // A tag that ended a line leaves a space before punctuation: "© OSM , CARTO" reads "© OSM, CARTO".
        for mark in [" ,", " .", " ;", " )"] { line = line.replacingOccurrences(of: mark, with: String(mark.dropFirst())) }
        line = line.replacingOccurrences(of: "( ", with: "(")
        return line.count > maxCharacters ? String(line.prefix(maxCharacters - 1)) + "…" : line
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: true
        default: false
        }
    }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "copy": "©", "reg": "®",
        "trade": "™", "middot": "·", "ndash": "–", "mdash": "—", "hellip": "…",
    ]

    /// `&amp;`, `&copy;`, `&#169;`, `&#xA9;` read; anything else is left as written.
    private static func decodeReferences(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var out = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semicolon = after.prefix(10).firstIndex(of: ";"), let value = reference(after[..<semicolon]) {
                out += value
                rest = after[after.index(after: semicolon)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }

    private static func reference(_ name: Substring) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let number = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return number.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
        }
        return named[String(name)]
    }
}
