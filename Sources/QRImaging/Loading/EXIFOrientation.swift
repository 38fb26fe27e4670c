/// Finds the orientation tag (0x0112) in a JPEG's EXIF APP1 segment with a bounds-checked walk
/// of IFD0. Anything malformed means "as stored": a bad tag must never stop a code being read.
enum EXIFOrientation {
    static func read(jpeg bytes: [UInt8]) -> Orientation {
        guard let tiff = exifPayload(in: bytes) else { return .up }
        return orientation(inTIFF: tiff) ?? .up
    }

    /// The TIFF structure inside the first `Exif\0\0` APP1 segment before the image data.
    private static func exifPayload(in b: [UInt8]) -> ArraySlice<UInt8>? {
        var i = 2   // after SOI
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xD8 || (0xD0...0xD7).contains(marker) || marker == 0x01 { i += 2; continue }
            if marker == 0xFF { i += 1; continue }   // fill byte
            if marker == 0xDA || marker == 0xD9 { return nil }   // image data: no EXIF came first
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            let start = i + 4, end = i + 2 + length
            guard length >= 2, end <= b.count else { return nil }
            if marker == 0xE1, end - start >= 6, Array(b[start..<start + 6]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return b[(start + 6)..<end]
            }
            i = end
        }
        return nil
    }

    private static func orientation(inTIFF t: ArraySlice<UInt8>) -> Orientation? {
        let base = t.startIndex
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[base], t[base + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= t.count else { return nil }
            let a = Int(t[base + at]), b = Int(t[base + at + 1])
            return little ? a | b << 8 : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard let lo = u16(little ? at : at + 2), let hi = u16(little ? at + 2 : at) else { return nil }
            return lo | hi << 16
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for n in 0..<count {
            let entry = ifd + 2 + n * 12
            guard let tag = u16(entry) else { return nil }
            // Type 3 (SHORT), one value, stored in the first two bytes of the value field.
            if tag == 0x0112, u16(entry + 2) == 3, let value = u16(entry + 8) {
                return Orientation(rawValue: value)
            }
        }
        return nil
    }
}
