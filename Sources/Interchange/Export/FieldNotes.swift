import Foundation

/// Geocaching field notes ("drafts"): the `geocache_visits.txt` a GPS receiver writes and
/// geocaching sites accept for upload. UTF-16 little-endian with a byte-order mark, one line per
/// find, CRLF line ends:
///
/// ```
/// GC1BKP3,2026-11-21T10:15Z,Found it,"Lovely walk, ""thanks"" for the cache"
/// ```
///
/// ```swift
/// try FileAccess.write(FieldNotes.data(finds), to: "geocache_visits.txt")
/// ```
public enum FieldNotes {
    /// The finds as field-note text (not yet encoded).
    public static func text(_ finds: [FoundLog]) -> String {
        finds.map(line).joined()
    }

    /// The finds as the file's bytes: BOM `FF FE`, then UTF-16 LE.
    public static func data(_ finds: [FoundLog]) -> Data {
        Data([0xFF, 0xFE]) + Data(text(finds).utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
    }

    /// One find. Line breaks in the text become spaces (a line is a find); quotes are doubled.
    static func line(_ find: FoundLog) -> String {
        let flat = find.text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }).joined(separator: " ")
        let quoted = flat.replacingOccurrences(of: "\"", with: "\"\"")
        return "\(find.cacheID),\(InterchangeTime.minutes(find.foundAt)),Found it,\"\(quoted)\"\r\n"
    }
}
