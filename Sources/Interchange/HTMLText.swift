/// Cache descriptions are HTML written for a web page; a hunt's message and hint are read on a
/// phone or a printed card. This reduces HTML to its text: tags dropped, blocks and line breaks
/// kept as line breaks, list items as bullets, scripts and styles removed, entities decoded.
///
/// ```swift
/// HTMLText.plain("<p>Go <b>north</b> &amp; look up.</p><ul><li>Bring a pen</li></ul>")
/// // "Go north & look up.\n• Bring a pen"
/// ```
public enum HTMLText {
    /// The text of an HTML fragment, with at most one blank line between paragraphs.
    /// Works on Unicode scalars, not Characters: descriptions run to tens of kilobytes, and
    /// markup is ASCII.
    public static func plain(_ html: String) -> String {
        let s = Array(html.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < s.count {
            let c = s[i]
            if c == "<", let close = s[(i + 1)...].firstIndex(of: ">") {
                let tag = Tag(String(String.UnicodeScalarView(s[(i + 1)..<close])))
                i = close + 1
                if tag.name == "script" || tag.name == "style", !tag.isClosing {
                    i = skipPast("</\(tag.name)", in: s, from: i)
                    continue
                }
                if tag.name == "li", !tag.isClosing { out.append(contentsOf: "\n• ".unicodeScalars) }
                else if tag.breaksLine { out.append("\n") }
                continue
            }
            if c == "&", let (decoded, next) = entity(in: s, at: i) {
                out.append(contentsOf: decoded.unicodeScalars)
                i = next
                continue
            }
            out.append(c)
            i += 1
        }
        return tidy(String(out))
    }

    /// Whitespace runs become one space, lines are trimmed, blank lines come at most one at a time.
    static func tidy(_ s: String) -> String {
        var lines: [String.UnicodeScalarView] = []
        var line = String.UnicodeScalarView()
        var pendingSpace = false
        func endLine() {
            if line.isEmpty, lines.last?.isEmpty ?? true { return }
            lines.append(line)
            line = String.UnicodeScalarView()
        }
        for c in s.unicodeScalars {
            switch c {
            case "\n":
                endLine(); pendingSpace = false
            case " ", "\t", "\r", "\u{A0}":
                pendingSpace = !line.isEmpty
            default:
                if pendingSpace { line.append(" "); pendingSpace = false }
                line.append(c)
            }
        }
        endLine()
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { String($0) }.joined(separator: "\n")
    }

    private struct Tag {
        var name: String
        var isClosing: Bool

        init(_ body: String) {
            isClosing = body.hasPrefix("/")
            let trimmed = body.drop { $0 == "/" || $0 == " " }
            name = String(trimmed.prefix { $0.isLetter || $0.isNumber }).lowercased()
        }

        var breaksLine: Bool { Self.blocks.contains(name) }
        static let blocks: Set = ["br", "p", "div", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol",
                                  "table", "blockquote", "pre", "hr", "dd", "dt", "section", "article"]
    }

    private static func skipPast(_ marker: String, in s: [Unicode.Scalar], from i: Int) -> Int {
        let m = Array(marker.lowercased().unicodeScalars)
        var j = i
        while j + m.count <= s.count {
            if s[j] == "<", zip(m, s[j..<(j + m.count)]).allSatisfy({ $0 == Self.lower($1) }) {
                return s[j...].firstIndex(of: ">").map { $0 + 1 } ?? s.count
            }
            j += 1
        }
        return s.count
    }

    private static func lower(_ c: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(c) ? Unicode.Scalar(c.value + 32)! : c
    }

    /// Decodes `&amp;`, `&#233;`, `&#xE9;` and the named entities cache pages commonly use.
    private static func entity(in s: [Unicode.Scalar], at i: Int) -> (String, Int)? {
        guard let semi = s[i..<min(s.count, i + 12)].firstIndex(of: ";") else { return nil }
        let body = String(String.UnicodeScalarView(s[(i + 1)..<semi]))
        let next = semi + 1
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            guard let value, let scalar = Unicode.Scalar(value) else { return nil }
            return (String(Character(scalar)), next)
        }
        guard let named = named[body] else { return nil }
        return (named, next)
    }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ",
        "eacute": "é", "egrave": "è", "ecirc": "ê", "aacute": "á", "agrave": "à", "acirc": "â", "atilde": "ã",
        "auml": "ä", "ouml": "ö", "uuml": "ü", "Auml": "Ä", "Ouml": "Ö", "Uuml": "Ü", "szlig": "ß",
        "oacute": "ó", "ocirc": "ô", "otilde": "õ", "iacute": "í", "uacute": "ú", "ccedil": "ç", "ntilde": "ñ",
        "deg": "°", "copy": "©", "reg": "®", "hellip": "…", "ndash": "–", "mdash": "—",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”", "euro": "€", "middot": "·",
    ]
}
