import Foundation
import GeoQR

/// The EXIF and GPS tags GeoQR reads (numbers from the EXIF 2.32 specification).
enum ExifTag16 {
    static let orientation: UInt16 = 0x0112
    static let dateTimeOriginal: UInt16 = 0x9003
    static let offsetTimeOriginal: UInt16 = 0x9011
    static let gpsLatitudeRef: UInt16 = 0x0001
    static let gpsLatitude: UInt16 = 0x0002
    static let gpsLongitudeRef: UInt16 = 0x0003
    static let gpsLongitude: UInt16 = 0x0004
    static let gpsAltitudeRef: UInt16 = 0x0005
    static let gpsAltitude: UInt16 = 0x0006
    static let gpsTimeStamp: UInt16 = 0x0007
    static let gpsStatus: UInt16 = 0x0009
    static let gpsDateStamp: UInt16 = 0x001D
    static let gpsHPositioningError: UInt16 = 0x001F
}

extension PhotoMetadata {
    /// Each field read on its own: one bad tag loses that field, not the others.
    init(reading block: ExifBlock) {
        self.init()
        orientation = block.integer(ExifTag16.orientation, in: .primary).flatMap { (1...8).contains($0) ? $0 : nil }
        // GPSStatus "V" is a void measurement: the receiver had no fix, whatever numbers follow.
        if block.text(ExifTag16.gpsStatus, in: .gps)?.uppercased() != "V" {
            coordinate = Self.position(block)
            altitude = Self.altitude(block)
        }
        accuracy = block.rationals(ExifTag16.gpsHPositioningError, in: .gps, count: 1)?.first
        gpsTime = Self.gpsTime(block)
        takenAtLocal = block.text(ExifTag16.dateTimeOriginal, in: .exif).flatMap(Self.exifDateTime)
        takenAtOffset = block.text(ExifTag16.offsetTimeOriginal, in: .exif).flatMap(Self.offset)
    }

    private static func position(_ block: ExifBlock) -> Coordinate? {
        guard let lat = axis(block, value: ExifTag16.gpsLatitude, ref: ExifTag16.gpsLatitudeRef, positive: "N", negative: "S"),
              let lon = axis(block, value: ExifTag16.gpsLongitude, ref: ExifTag16.gpsLongitudeRef, positive: "E", negative: "W")
        else { return nil }
        return try? Coordinate.checked(latitude: lat, longitude: lon)
    }

    /// Degrees, minutes, seconds (some cameras put all in degrees, or decimal minutes with
    /// zero seconds: the sum reads them all), signed by the reference letter.
    private static func axis(_ block: ExifBlock, value: UInt16, ref: UInt16, positive: String, negative: String) -> Double? {
        guard let dms = block.rationals(value, in: .gps, count: 3),
              dms[1] < 60, dms[2] < 60,
              let letter = block.text(ref, in: .gps)?.trimmingCharacters(in: .whitespaces).uppercased(),
              letter == positive || letter == negative else { return nil }
        let degrees = dms[0] + dms[1] / 60 + dms[2] / 3600
        return letter == negative ? -degrees : degrees
    }

    private static func altitude(_ block: ExifBlock) -> Double? {
        guard let metres = block.rationals(ExifTag16.gpsAltitude, in: .gps, count: 1)?.first else { return nil }
        return block.integer(ExifTag16.gpsAltitudeRef, in: .gps) == 1 ? -metres : metres
    }

    private static func gpsTime(_ block: ExifBlock) -> Date? {
        guard let hms = block.rationals(ExifTag16.gpsTimeStamp, in: .gps, count: 3),
              hms[0] < 24, hms[1] < 60, hms[2] < 61,
              let date = block.text(ExifTag16.gpsDateStamp, in: .gps).flatMap({ exifDateTime($0 + " 00:00:00") })
        else { return nil }
        var utc = date
        utc.timeZone = TimeZone(secondsFromGMT: 0)
        guard let midnight = Calendar(identifier: .gregorian).date(from: utc) else { return nil }
        return midnight.addingTimeInterval(hms[0] * 3600 + hms[1] * 60 + hms[2])
    }

    /// `2024:05:02 10:15:30` (EXIF's own form); blanks and zeros mean unknown.
    static func exifDateTime(_ text: String) -> DateComponents? {
        let fields = text.trimmingCharacters(in: .whitespaces)
            .split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "-" }).map { Int($0) }
        guard fields.count >= 6, fields.prefix(6).allSatisfy({ $0 != nil }) else { return nil }
        let v = fields.prefix(6).map { $0! }
        guard (1900...9999).contains(v[0]), (1...12).contains(v[1]), (1...31).contains(v[2]),
              (0...23).contains(v[3]), (0...59).contains(v[4]), (0...60).contains(v[5]) else { return nil }
        return DateComponents(year: v[0], month: v[1], day: v[2], hour: v[3], minute: v[4], second: v[5])
    }

    /// `+01:00`, `-05:30` → seconds east of UTC.
    static func offset(_ text: String) -> Int? {
        let t = Array(text.trimmingCharacters(in: .whitespaces))
        guard t.count == 6, t[0] == "+" || t[0] == "-", t[3] == ":",
              let h = Int(String(t[1...2])), let m = Int(String(t[4...5])), h <= 14, m < 60 else { return nil }
        return (t[0] == "-" ? -1 : 1) * (h * 3600 + m * 60)
    }
}
