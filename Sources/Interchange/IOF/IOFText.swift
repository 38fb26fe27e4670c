import Foundation

/// Text, times and numbers as IOF XML writes them, and as ``IOFCourseReader`` reads them back.
enum IOFText {
    /// The text without C0 control characters other than tab and line feed (a carriage return
    /// would come back as a line feed), nor U+FFFE/U+FFFF: a player's name may hold anything,
    /// and none of these can be written as XML 1.0 text that reads back the same.
    static func clean(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isDropped) else { return s }
        var out = String.UnicodeScalarView()
        out.append(contentsOf: s.unicodeScalars.filter { !isDropped($0) })
        return String(out)
    }

    private static func isDropped(_ c: Unicode.Scalar) -> Bool {
        (c.value < 0x20 && c != "\t" && c != "\n") || c.value == 0xFFFE || c.value == 0xFFFF
    }

    /// `2026-11-21T10:15:00Z`, or `…00.250Z` when the time has milliseconds (xsd:dateTime, UTC).
    static func time(_ date: Date) -> String {
        // The milliseconds are written by hand: the formatter truncates 0.123 held as 0.12299….
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = (millis.floorDiv(1000), millis - millis.floorDiv(1000) * 1000)
        let whole = InterchangeTime.iso(Date(timeIntervalSince1970: TimeInterval(seconds)))
        guard fraction != 0, whole.hasSuffix("Z") else { return whole }
        return String(whole.dropLast()) + String(format: ".%03dZ", Int32(fraction))
    }

    /// An ISO 8601 time with a zone, with or without fractional seconds, to the millisecond.
    static func date(_ s: String) -> Date? {
        let f = ISO8601DateFormatter()
        var date = f.date(from: s)
        if date == nil {
            f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            date = f.date(from: s)
        }
        return date.map { Date(timeIntervalSince1970: ($0.timeIntervalSince1970 * 1000).rounded() / 1000) }
    }

    /// Seconds as xsd:double without an exponent: `1320`, `1320.25`.
    static func seconds(_ t: TimeInterval) -> String {
        GPXWriter.decimal((t * 1000).rounded() / 1000)
    }

    /// Whether seconds have a fraction at the millisecond GeoQR keeps.
    static func isFractional(_ t: TimeInterval) -> Bool {
        (t * 1000).rounded().truncatingRemainder(dividingBy: 1000) != 0
    }
}

private extension Int64 {
    /// Division rounding towards minus infinity (times before 1970 too).
    func floorDiv(_ d: Int64) -> Int64 { self >= 0 ? self / d : -((-self + d - 1) / d) }
}
