import Foundation

/// The text of a code's bytes, as the QR standard and common practice read them.
///
/// zbar (asked for raw bytes) already turns a payload that declares its character set (an ECI
/// segment) into UTF-8. A payload that declares none is read the way readers do: UTF-8 when the
/// bytes are valid UTF-8 (a leading byte-order mark dropped); Shift-JIS when they are valid
/// Shift-JIS and hold at least one kanji or kana pair (Japanese codes, which the standard's
/// Kanji mode and most Japanese encoders write); else ISO-8859-1, the standard's own default
/// for byte mode, which reads any bytes. ASCII, which every GeoQR code is, reads as itself.
///
/// ```swift
/// PayloadText.text(of: [0x43, 0x61, 0x66, 0xE9])            // "Café" (ISO-8859-1)
/// PayloadText.text(of: [0x95, 0xF3, 0x92, 0x54])            // "宝探" (Shift-JIS)
/// ```
public enum PayloadText {
    public static func text(of raw: [UInt8]) -> String {
        if raw.allSatisfy({ $0 < 0x80 }) { return String(decoding: raw, as: UTF8.self) }
        var bytes = raw[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        if longestShiftJISRun(raw) >= 2, let sjis = String(data: Data(raw), encoding: .shiftJIS) { return sjis }
        return String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
    }

    /// The most JIS X 0208 double-byte characters in a row (a lead byte 0x81–0x9F or 0xE0–0xEF,
    /// then a trail byte 0x40–0xFC other than 0x7F). Japanese words are two characters and up;
    /// Latin-1 text makes such a pair now and then by chance (ç then ã in "ação" is one), seldom
    /// two in a row.
    static func longestShiftJISRun(_ raw: [UInt8]) -> Int {
        var longest = 0, run = 0, i = 0
        while i < raw.count {
            let lead = raw[i]
            if i + 1 < raw.count, (0x81...0x9F).contains(lead) || (0xE0...0xEF).contains(lead),
               (0x40...0xFC).contains(raw[i + 1]), raw[i + 1] != 0x7F {
                run += 1
                longest = max(longest, run)
                i += 2
            } else {
                run = 0
                i += 1
            }
        }
        return longest
    }
}
