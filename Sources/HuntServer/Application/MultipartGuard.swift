import NIOCore

/// A check of a multipart body's part headers before multipart-kit reads it.
///
/// multipart-kit 4.7.1 looks each byte of a header name up in a 128-entry table, so a header
/// name with a byte of 128 or more (`Vø: x`) traps the process: one request from any player
/// would stop the hunt for everyone. Found by schemathesis; this refuses such bodies first.
/// Header values (a UTF-8 file name) are left alone: only names are looked up that way.
enum MultipartGuard {
    /// True when every part's header names are ASCII.
    static func headerNamesAreASCII(_ body: ByteBuffer, boundary: String) -> Bool {
        let delimiter = Array(("--" + boundary).utf8)
        return body.withUnsafeReadableBytes { bytes in
            var index = 0
            while let start = find(delimiter, in: bytes, from: index) {
                var cursor = start + delimiter.count
                // The rest of the delimiter's own line (`--` after the last one, or nothing).
                while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "\n") { cursor += 1 }
                cursor += 1
                // A header section: lines up to an empty one (or the end of the body).
                var atLineStart = true, inName = true
                while cursor < bytes.count {
                    let byte = bytes[cursor]
                    if byte == UInt8(ascii: "\n") {
                        if atLineStart { break }   // the blank line: the part's content starts
                        atLineStart = true; inName = true
                    } else if byte != UInt8(ascii: "\r") {
                        atLineStart = false
                        if byte == UInt8(ascii: ":") { inName = false }
                        else if inName, byte >= 0x80 { return false }
                    }
                    cursor += 1
                }
                index = cursor
            }
            return true
        }
    }

    private static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var i = from
        while i <= haystack.count - needle.count {
            if haystack[i] == first, haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}
