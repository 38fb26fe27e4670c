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
    public static func plain(_ html: String) -> String {
        var out = ""
        var i = html.startIndex
        while i < html.endIndex {
            let c = html[i]
            if c == "<", let close = html[i...].firstIndex(of: ">") {
                let tag = Tag(html[html.index(after: i)..<close])
                i = html.index(after: close)
                if tag.name == "script" || tag.name == "style", !tag.isClosing {
                    i = skipPast("</\(tag.name)", in: html, from: i)
                    continue
                }
                if tag.name == "li", !tag.isClosing { out += "\n• " }
                else if tag.breaksLine { out += "\n" }
                continue
            }
            if c == "&", let (decoded, next) = entity(in: html, at: i) {
                out += decoded
                i = next
                continue
            }
            out.append(c)
            i = html.index(after: i)
        }
        return tidy(out)
    }

    /// Whitespace runs become one space, lines are trimmed, blank lines come at most one at a time.
    static func tidy(_ s: String) -> String {
        var lines: [String] = []
        for raw in s.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\u{A0}" })
                .joined(separator: " ")
            if line.isEmpty, lines.last?.isEmpty ?? true { continue }
            lines.append(line)
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    private struct Tag {
        var name: String
        var isClosing: Bool

        init(_ body: Substring) {
            isClosing = body.hasPrefix("/")
            let trimmed = body.drop { $0 == "/" || $0 == " " }
            name = String(trimmed.prefix { $0.isLetter || $0.isNumber }).lowercased()
        }

        var breaksLine: Bool { Self.blocks.contains(name) }
        static let blocks: Set = ["br", "p", "div", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol",
                                  "table", "blockquote", "pre", "hr", "dd", "dt", "section", "article"]
    }

    private static func skipPast(_ marker: String, in html: String, from i: String.Index) -> String.Index {
        guard let r = html.range(of: marker, options: .caseInsensitive, range: i..<html.endIndex) else { return html.endIndex }
        return html[r.upperBound...].firstIndex(of: ">").map { html.index(after: $0) } ?? html.endIndex
    }

    /// Decodes `&amp;`, `&#233;`, `&#xE9;` and the named entities cache pages commonly use.
    private static func entity(in s: String, at i: String.Index) -> (String, String.Index)? {
        guard let semi = s[i...].prefix(12).firstIndex(of: ";") else { return nil }
        let body = s[s.index(after: i)..<semi]
        let next = s.index(after: semi)
        if body.hasPrefix("#") {
            let digits = body.dropFirst()
            let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            guard let value, let scalar = Unicode.Scalar(value) else { return nil }
            return (String(Character(scalar)), next)
        }
        guard let named = named[String(body)] else { return nil }
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
