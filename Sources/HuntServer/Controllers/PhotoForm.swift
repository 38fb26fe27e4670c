import Foundation

/// The form a phone's file picker posts to the claim-photo route: `photo` (JPEG, PNG or HEIC)
/// and, for photos without GPS, the browser's `latitude`, `longitude` and `accuracy`.
///
/// Read in one pass over the body, in time linear in its size, with small limits: at most
/// ``maxParts`` parts, ``maxHeaderBytes`` of headers a part, ``maxFieldBytes`` a text field.
/// (multipart-kit's decoder, used before, was quadratic: a form of 40,000 tiny parts took 36 s.)
/// Parts named anything else are skipped; each still counts towards the limit.
///
/// The fuzz harness `Fuzz/Sources/FuzzMultipart` compiles this very file, so what it parses is
/// what the server parses; it imports nothing but Foundation, so the harness builds without the
/// server's libraries. What HTTP adds (the media type, Hummingbird's request body) is in
/// `PhotoForm+HTTP.swift`.
///
/// ```swift
/// guard let boundary = PhotoForm.boundary(contentType: type) else { throw … }
/// let form = try PhotoForm.decode(body, boundary: boundary)
/// ```
struct PhotoForm: Equatable {
    var photo: Data
    var latitude: String?
    var longitude: String?
    var accuracy: String?

    /// Most parts a form may have: the four it uses and a few a browser may add.
    static let maxParts = 8
    /// Most bytes of headers a part may have (a browser sends about a hundred).
    static let maxHeaderBytes = 1024
    /// Most bytes a text field may hold: a number needs a few dozen.
    static let maxFieldBytes = 64

    /// Why a form was refused, in a sentence for its sender.
    enum Problem: Error, Equatable, CustomStringConvertible {
        case tooManyParts
        case headersTooLong
        case fieldTooLong(String)
        case malformed(String)
        case noPhoto
        case repeated(String)
        case notText(String)

        var description: String {
            switch self {
            case .tooManyParts: "the form has more than \(PhotoForm.maxParts) parts"
            case .headersTooLong: "a part of the form has more than \(PhotoForm.maxHeaderBytes) bytes of headers"
            case .fieldTooLong(let name): "the form's \(name) is longer than \(PhotoForm.maxFieldBytes) bytes"
            case .malformed(let why): "the form is not multipart/form-data: \(why)"
            case .noPhoto: "the form needs a `photo` part (JPEG, PNG or HEIC)"
            case .repeated(let name): "the form has more than one `\(name)` part"
            case .notText(let name): "the form's \(name) is not UTF-8 text"
            }
        }
    }

    /// The `boundary` parameter among a Content-Type's parameters (`; boundary=…; charset=…`,
    /// quoted or not), or nil when there is none or RFC 2046 does not allow it (1 to 70
    /// characters). Hummingbird's `MediaType` reads the type (``boundary(contentType:)``) but
    /// keeps only a first parameter, and reads an unquoted one to the end of the header.
    static func boundaryParameter(in type: String) -> String? {
        guard let semicolon = type.firstIndex(of: ";") else { return nil }
        for parameter in splitParameters(type[type.index(after: semicolon)...]) {
            guard let equals = parameter.firstIndex(of: "="),
                  parameter[..<equals].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else { continue }
            let boundary = unquoted(parameter[parameter.index(after: equals)...])
            return (1...70).contains(boundary.utf8.count) ? String(boundary) : nil
        }
        return nil
    }

    /// One pass: each delimiter is found in linear time (``find(_:in:from:)``), each part's headers are read
    /// within their limit, and only the wanted parts' bytes are copied.
    static func parse(_ bytes: UnsafeRawBufferPointer, boundary: String) throws(Problem) -> PhotoForm {
        // The first delimiter may open the body; every later one follows a CR LF.
        let delimiter = Array("\r\n--\(boundary)".utf8)
        var form = (photo: Data?.none, fields: [String: String]())
        var parts = 0
        // Pretend a CR LF precedes the body, so the first delimiter is found like the rest.
        let opening = Array(delimiter.dropFirst(2))
        var position: Int
        if bytes.starts(with: opening) {
            position = opening.count
        } else {
            guard let first = find(delimiter, in: bytes, from: 0) else { throw .malformed("no boundary") }
            position = first + delimiter.count
        }
        while true {
            // After a delimiter: `--` closes the form; else optional spaces, then CR LF.
            if hasPrefix("--", bytes, at: position) { break }
            while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t") { position += 1 }
            guard hasPrefix("\r\n", bytes, at: position) else { throw .malformed("a boundary line runs on") }
            position += 2
            parts += 1
            guard parts <= maxParts else { throw .tooManyParts }
            let headerLimit = min(bytes.count, position + maxHeaderBytes + 4)
            guard let headersEnd = find(Array("\r\n\r\n".utf8), in: UnsafeRawBufferPointer(rebasing: bytes[..<headerLimit]), from: position - 2)
            else { throw headerLimit == bytes.count ? .malformed("a part's headers never end") : .headersTooLong }
            let name = try partName(UnsafeRawBufferPointer(rebasing: bytes[position..<max(position, headersEnd)]))
            let start = headersEnd + 4
            guard let end = find(delimiter, in: bytes, from: start) else { throw .malformed("the last part never ends") }
            let content = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            switch name {
            case "photo":
                guard form.photo == nil else { throw .repeated(name) }
                form.photo = Data(content)
            case "latitude", "longitude", "accuracy":
                guard form.fields[name] == nil else { throw .repeated(name) }
                guard content.count <= maxFieldBytes else { throw .fieldTooLong(name) }
                // Validated, not repaired: each bad byte would become a three-byte U+FFFD and
                // the field three times its limit.
                guard let text = String(validating: content, as: UTF8.self) else { throw .notText(name) }
                form.fields[name] = text
            default:
                break
            }
            position = end + delimiter.count
        }
        guard let photo = form.photo else { throw .noPhoto }
        return PhotoForm(photo: photo, latitude: form.fields["latitude"], longitude: form.fields["longitude"],
                         accuracy: form.fields["accuracy"])
    }

    /// The `name` of a part's `Content-Disposition: form-data; name="…"` header.
    static func partName(_ headers: UnsafeRawBufferPointer) throws(Problem) -> String {
        let text = String(decoding: headers, as: UTF8.self)
        var name: String?
        for line in text.split(separator: "\r\n", omittingEmptySubsequences: true) {
            guard let colon = line.firstIndex(of: ":") else { throw .malformed("a part's header has no colon") }
            // Header names are tokens: printable ASCII, no spaces.
            guard line[..<colon].unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
                throw .malformed("a part's header name is not a token")
            }
            guard line[..<colon].trimmingCharacters(in: .whitespaces).lowercased() == "content-disposition" else { continue }
            let parameters = splitParameters(line[line.index(after: colon)...])
            guard parameters.first?.lowercased() == "form-data" else { throw .malformed("a part is not form-data") }
            for parameter in parameters.dropFirst() {
                guard let equals = parameter.firstIndex(of: "=") else { continue }
                guard parameter[..<equals].lowercased() == "name" else { continue }
                name = String(unquoted(parameter[parameter.index(after: equals)...]))
            }
        }
        guard let name else { throw .malformed("a part has no name") }
        return name
    }

    /// `form-data; name="photo"; filename="a;b.jpg"` split at the semicolons outside quotes.
    private static func splitParameters(_ text: Substring) -> [String] {
        var parameters: [String] = [], current = "", quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if character == ";", !quoted {
                parameters.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        parameters.append(current.trimmingCharacters(in: .whitespaces))
        return parameters
    }

    private static func unquoted(_ value: Substring) -> Substring {
        let value = value.trimmingCharacters(in: .whitespaces)[...]
        return value.count >= 2 && value.hasPrefix("\"") && value.hasSuffix("\"") ? value.dropFirst().dropLast() : value
    }

    private static func hasPrefix(_ text: String, _ bytes: UnsafeRawBufferPointer, at position: Int) -> Bool {
        let prefix = Array(text.utf8)
        return position + prefix.count <= bytes.count && prefix.indices.allSatisfy { bytes[position + $0] == prefix[$0] }
    }

    /// Where `needle` (which must start with its only CR, as a delimiter does: a boundary
    /// holds no CR) next starts in `bytes` at or after `start`. Linear: `memchr` finds each CR,
    /// `memcmp` compares from it, and a comparison that matched k bytes saw no CR in them, so
    /// no byte is compared for two CRs.
    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start >= 0 else { return nil }
        var i = start
        return needle.withUnsafeBytes { n -> Int? in
            while i + n.count <= bytes.count {
                guard let cr = memchr(base + i, Int32(needle[0]), bytes.count - n.count + 1 - i) else { return nil }
                let at = base.distance(to: UnsafeRawPointer(cr))
                if memcmp(base + at, n.baseAddress!, n.count) == 0 { return at }
                i = at + 1
            }
            return nil
        }
    }
}
