/// Finds the EXIF block inside a file's bytes, with bounds-checked walks, and hands it to
/// libexif as `Exif\0\0` + TIFF: the one form libexif reads whatever the container.
enum ExifLocator {
    static let header: [UInt8] = Array("Exif".utf8) + [0, 0]

    static func payload(inFile b: [UInt8]) -> [UInt8]? {
        if b.starts(with: [0xFF, 0xD8]) { return jpegAPP1(b) }
        if b.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return pngEXIf(b) }
        if b.starts(with: header) { return b }
        if isTIFF(b[...]) { return header + b }
        return nil
    }

    /// libheif's Exif item: a big-endian offset from after itself to the TIFF header.
    static func payload(heifBlock b: [UInt8]) -> [UInt8]? {
        guard b.count >= 4 else { return nil }
        let skip = Int(b[0]) << 24 | Int(b[1]) << 16 | Int(b[2]) << 8 | Int(b[3])
        guard skip < b.count - 4 else { return nil }
        let tiff = b[(4 + skip)...]
        return isTIFF(tiff) ? header + tiff : nil
    }

    static func isTIFF(_ b: ArraySlice<UInt8>) -> Bool {
        b.starts(with: [0x49, 0x49, 0x2A, 0x00]) || b.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
    }

    /// The first APP1 segment that starts `Exif\0\0`, before the image data. XMP also lives
    /// in APP1, so others are skipped rather than taken.
    private static func jpegAPP1(_ b: [UInt8]) -> [UInt8]? {
        var i = 2
        while i + 4 <= b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue }   // fill byte
            if (0xD0...0xD7).contains(marker) || marker == 0x01 || marker == 0xD8 { i += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            let start = i + 4, end = i + 2 + length
            guard length >= 2, end <= b.count else { return nil }
            if marker == 0xE1, b[start..<end].starts(with: header) { return Array(b[start..<end]) }
            i = end
        }
        return nil
    }

    /// The `eXIf` chunk (PNG 1.5 extensions): a bare TIFF structure.
    private static func pngEXIf(_ b: [UInt8]) -> [UInt8]? {
        var i = 8
        while i + 12 <= b.count {
            let length = Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
            let type = String(decoding: b[(i + 4)..<(i + 8)], as: UTF8.self)
            let start = i + 8
            guard length <= b.count - start - 4 else { return nil }
            if type == "eXIf" {
                let tiff = b[start..<(start + length)]
                return isTIFF(tiff) ? header + tiff : nil
            }
            if type == "IEND" { return nil }
            i = start + length + 4
        }
        return nil
    }
}
