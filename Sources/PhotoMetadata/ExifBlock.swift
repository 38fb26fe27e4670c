import CExif

/// One parsed EXIF block, owned: libexif's `ExifData`, made from the bytes and unreferenced on
/// deinit. Nothing outside this type sees a libexif pointer; values come out as Swift numbers
/// and strings, each read checked against the entry's declared format, count and size.
final class ExifBlock {
    /// The IFDs a tag can live in, in libexif's numbering.
    enum Directory: Int {
        case primary = 0, thumbnail = 1, exif = 2, gps = 3, interoperability = 4
    }

    private let data: UnsafeMutablePointer<ExifData>
    private let order: ExifByteOrder

    /// Parses `Exif\0\0` followed by a TIFF structure; nil when libexif finds no entry at all.
    /// libexif bounds-checks every offset, and a damaged block gives fewer entries, not a crash.
    init?(exifPayload bytes: [UInt8]) {
        guard bytes.count > 6 + 8, let data = exif_data_new() else { return nil }
        // Read what is there, as it is there: don't drop tags libexif does not know
        // (OffsetTimeOriginal is new to it) and don't "fix" the block by adding default tags.
        exif_data_unset_option(data, EXIF_DATA_OPTION_IGNORE_UNKNOWN_TAGS)
        exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION)
        bytes.withUnsafeBufferPointer { exif_data_load_data(data, $0.baseAddress, UInt32(min($0.count, Int(UInt32.max)))) }
        self.data = data
        order = exif_data_get_byte_order(data)
        guard [Directory.primary, .exif, .gps].contains(where: { content($0).map { $0.pointee.count > 0 } ?? false }) else {
            return nil
        }
    }

    deinit { exif_data_unref(data) }

    /// `count` unsigned rationals (`count` nil: however many there are); nil when the entry is
    /// missing, of another format, shorter than declared, or has a zero denominator.
    func rationals(_ tag: UInt16, in directory: Directory, count: Int? = nil) -> [Double]? {
        guard let e = entry(tag, in: directory, format: EXIF_FORMAT_RATIONAL, size: 8, count: count) else { return nil }
        var values: [Double] = []
        for i in 0..<Int(e.pointee.components) {
            let r = exif_get_rational(e.pointee.data + i * 8, order)
            guard r.denominator != 0 else { return nil }
            values.append(Double(r.numerator) / Double(r.denominator))
        }
        return values
    }

    /// An ASCII entry's text, up to its first NUL; nil when missing or not ASCII.
    func text(_ tag: UInt16, in directory: Directory) -> String? {
        guard let e = entry(tag, in: directory, format: EXIF_FORMAT_ASCII, size: 1, count: nil) else { return nil }
        let bytes = UnsafeBufferPointer(start: e.pointee.data, count: Int(e.pointee.components))
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// A single SHORT or BYTE value.
    func integer(_ tag: UInt16, in directory: Directory) -> Int? {
        if let e = entry(tag, in: directory, format: EXIF_FORMAT_SHORT, size: 2, count: 1) {
            return Int(exif_get_short(e.pointee.data, order))
        }
        if let e = entry(tag, in: directory, format: EXIF_FORMAT_BYTE, size: 1, count: 1) {
            return Int(e.pointee.data.pointee)
        }
        return nil
    }

    private func entry(_ tag: UInt16, in directory: Directory, format: ExifFormat, size: Int,
                       count: Int?) -> UnsafeMutablePointer<ExifEntry>? {
        guard let content = content(directory),
              let e = exif_content_get_entry(content, ExifTag(rawValue: UInt32(tag))),
              e.pointee.format == format, e.pointee.data != nil,
              e.pointee.components > 0, e.pointee.components < 1 << 16,
              count.map({ Int(e.pointee.components) == $0 }) ?? true,
              Int(e.pointee.size) >= Int(e.pointee.components) * size
        else { return nil }
        return e
    }

    private func content(_ directory: Directory) -> UnsafeMutablePointer<ExifContent>? {
        let ifd = data.pointee.ifd
        switch directory {
        case .primary: return ifd.0
        case .thumbnail: return ifd.1
        case .exif: return ifd.2
        case .gps: return ifd.3
        case .interoperability: return ifd.4
        }
    }
}
