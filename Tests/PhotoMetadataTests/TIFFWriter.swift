/// A minimal EXIF writer for tests: IFD0 with pointers to an EXIF IFD and a GPS IFD, in
/// either byte order. Written by hand, apart from libexif, so the reader is checked against
/// bytes it did not make.
struct TIFFWriter {
    struct Entry {
        let tag: UInt16, type: UInt16, count: Int, value: [UInt8]
    }

    var littleEndian = true
    var primary: [Entry] = []
    var exif: [Entry] = []
    var gps: [Entry] = []

    func u16(_ v: UInt16) -> [UInt8] { littleEndian ? [UInt8(v & 0xFF), UInt8(v >> 8)] : [UInt8(v >> 8), UInt8(v & 0xFF)] }
    func u32(_ v: UInt32) -> [UInt8] {
        let b = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
        return littleEndian ? b.reversed() : b
    }

    func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let bytes = Array(text.utf8) + [0]
        return Entry(tag: tag, type: 2, count: bytes.count, value: bytes)
    }
    func short(_ tag: UInt16, _ v: UInt16) -> Entry { Entry(tag: tag, type: 3, count: 1, value: u16(v)) }
    func byte(_ tag: UInt16, _ v: UInt8) -> Entry { Entry(tag: tag, type: 1, count: 1, value: [v]) }
    func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Entry {
        Entry(tag: tag, type: 5, count: values.count, value: values.flatMap { u32($0.0) + u32($0.1) })
    }

    /// Degrees, minutes and seconds as rationals, seconds to 1/1000.
    func dms(_ tag: UInt16, _ decimal: Double) -> Entry {
        let a = abs(decimal), d = a.rounded(.down), m = ((a - d) * 60).rounded(.down)
        let s = ((a - d) * 60 - m) * 60
        return rationals(tag, [(UInt32(d), 1), (UInt32(m), 1), (UInt32((s * 1000).rounded()), 1000)])
    }

    /// The TIFF structure (what follows `Exif\0\0`).
    func tiff() -> [UInt8] {
        let primarySize = size(primary.count + 2, data: primary)
        let exifOffset = 8 + primarySize, gpsOffset = exifOffset + size(exif.count, data: exif)
        let head = primary + [Entry(tag: 0x8769, type: 4, count: 1, value: u32(UInt32(exifOffset))),
                              Entry(tag: 0x8825, type: 4, count: 1, value: u32(UInt32(gpsOffset)))]
        var out = (littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]) + u16(42) + u32(8)
        out += ifd(head, at: 8) + ifd(exif, at: exifOffset) + ifd(gps, at: gpsOffset)
        return out
    }

    /// `Exif\0\0` + TIFF, as an APP1 segment carries it.
    func exifPayload() -> [UInt8] { Array("Exif".utf8) + [0, 0] + tiff() }

    private func size(_ count: Int, data entries: [Entry]) -> Int {
        2 + 12 * count + 4 + entries.filter { $0.value.count > 4 }.map { ($0.value.count + 1) & ~1 }.reduce(0, +)
    }

    private func ifd(_ entries: [Entry], at offset: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var table = u16(UInt16(sorted.count)), data: [UInt8] = []
        let dataStart = offset + 2 + 12 * sorted.count + 4
        for e in sorted {
            table += u16(e.tag) + u16(e.type) + u32(UInt32(e.count))
            if e.value.count <= 4 {
                table += e.value + [UInt8](repeating: 0, count: 4 - e.value.count)
            } else {
                table += u32(UInt32(dataStart + data.count))
                data += e.value
                if data.count % 2 == 1 { data.append(0) }
            }
        }
        return table + u32(0) + data
    }
}

/// Puts an APP1 segment right after a JPEG's SOI marker.
func insertingAPP1(_ payload: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
    let length = payload.count + 2
    return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
}
