import Foundation
import QRImaging

/// One input file's result, as `geoqr decode --json` prints it: one object a line.
struct DecodeReport: Sendable {
    struct Code: Sendable {
        let text: String
        /// Base64 of the raw bytes.
        let raw: String
        /// Corners in the file's stored pixels (before EXIF orientation).
        let corners: [[Int]]
        let symbology: String
        /// The decode pass that found it.
        let pass: String
    }

    let file: String
    let codes: [Code]
    let error: String?

    init(file: String, decoded: DecodedPicture) {
        self.file = file
        codes = zip(decoded.symbols, decoded.passes).map { symbol, pass in
            Code(text: symbol.text, raw: Data(symbol.raw).base64EncodedString(),
                 corners: decoded.storedCorners(of: symbol).map { [$0.x, $0.y] },
                 symbology: symbol.symbology, pass: pass.rawValue)
        }
        error = nil
    }

    init(file: String, error: String) {
        self.file = file
        codes = []
        self.error = error
    }

    /// The compact one-line JSON form, keys in a reading order (file, codes, error) that
    /// JSONEncoder does not promise.
    func jsonLine() -> String {
        let codes = codes.map { c in
            let corners = c.corners.map { "[\($0.map(String.init).joined(separator: ","))]" }.joined(separator: ",")
            return "{\"text\":\(quoted(c.text)),\"raw\":\(quoted(c.raw)),\"corners\":[\(corners)],"
                + "\"symbology\":\(quoted(c.symbology)),\"pass\":\(quoted(c.pass))}"
        }
        var line = "{\"file\":\(quoted(file)),\"codes\":[\(codes.joined(separator: ","))]"
        if let error { line += ",\"error\":\(quoted(error))" }
        return line + "}"
    }

    private func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}
