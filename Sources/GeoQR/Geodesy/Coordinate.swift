import Foundation

/// A point on the WGS84 ellipsoid, in decimal degrees.
///
/// Hunt files and the command line accept either decimal degrees or the geocaching form:
///
/// ```swift
/// let a = try Coordinate(parsing: "40.63030, -8.65750")
/// let b = try Coordinate(parsing: "N 40° 37.818' W 008° 39.450'")
/// print(b.geocachingForm)   // N 40° 37.818' W 008° 39.450'
/// ```
public struct Coordinate: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Why a coordinate could not be read.
public enum CoordinateError: Error, Equatable, CustomStringConvertible {
    case notALatitude(Double)
    case notALongitude(Double)
    case unreadable(String)

    public var description: String {
        switch self {
        case .notALatitude(let v): "\(formatNumber(v)) is not a latitude (-90…90)"
        case .notALongitude(let v): "\(formatNumber(v)) is not a longitude (-180…180)"
        case .unreadable(let s):
            "\"\(s)\" is not a coordinate (use decimal degrees like 40.63030, -8.65750 or N 40° 37.818' W 008° 39.450')"
        }
    }
}

/// Prints 95 as "95" and 95.5 as "95.5", as a person would write them in a hunt file.
func formatNumber(_ v: Double) -> String {
    if v.isFinite, v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
    return String(v)
}

extension Coordinate {
    /// Checks the ranges of both axes and returns the coordinate.
    public static func checked(latitude: Double, longitude: Double) throws(CoordinateError) -> Coordinate {
        guard latitude.isFinite, (-90...90).contains(latitude) else { throw .notALatitude(latitude) }
        guard longitude.isFinite, (-180...180).contains(longitude) else { throw .notALongitude(longitude) }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Reads "lat,lon" in decimal degrees, or the geocaching form `N 40° 37.818' W 008° 39.450'`.
    public init(parsing text: String) throws(CoordinateError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let (lat, lon) = Self.decimalPair(trimmed) {
            self = try .checked(latitude: lat, longitude: lon)
            return
        }
        guard let lat = Self.geocachingAxis(trimmed, positive: "N", negative: "S", firstHalf: true),
              let lon = Self.geocachingAxis(trimmed, positive: "E", negative: "W", firstHalf: false)
        else { throw .unreadable(text) }
        self = try .checked(latitude: lat, longitude: lon)
    }

    /// Reads one axis in the geocaching form, e.g. `N 40° 37.818'` or `W008 39.450`.
    public static func parseAxis(_ text: String, isLatitude: Bool) throws(CoordinateError) -> Double {
        let (pos, neg) = isLatitude ? ("N", "S") : ("E", "W")
        guard let v = geocachingAxis(text, positive: pos, negative: neg, firstHalf: true) else {
            throw .unreadable(text)
        }
        return v
    }

    /// `N 40° 37.818' W 008° 39.450'`: degrees and decimal minutes, minutes to three places
    /// (about 1.8 m), as geocaching sites and GPS receivers show them.
    public var geocachingForm: String { "\(geocachingLatitude) \(geocachingLongitude)" }

    /// `N 40° 37.818'`
    public var geocachingLatitude: String { Self.axisForm(latitude, positive: "N", negative: "S", degreeDigits: 2) }
    /// `W 008° 39.450'`
    public var geocachingLongitude: String { Self.axisForm(longitude, positive: "E", negative: "W", degreeDigits: 3) }

    /// `40.63030, -8.65750`: decimal degrees to five places (about 1 m).
    public var decimalForm: String {
        String(format: "%.5f, %.5f", latitude, longitude)
    }

    private static func axisForm(_ value: Double, positive: String, negative: String, degreeDigits: Int) -> String {
        let hemisphere = value < 0 ? negative : positive
        // Round to thousandths of a minute first, so 59.9996' carries into the next degree.
        let totalMilliMinutes = (abs(value) * 60_000).rounded()
        let degrees = Int(totalMilliMinutes / 60_000)
        let milli = Int(totalMilliMinutes) - degrees * 60_000
        let deg = String(degrees).leftPadded(to: degreeDigits)
        let minutes = String(milli / 1000).leftPadded(to: 2) + "." + String(milli % 1000).leftPadded(to: 3)
        return "\(hemisphere) \(deg)° \(minutes)'"
    }

    private static func decimalPair(_ text: String) -> (Double, Double)? {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " }).filter { !$0.isEmpty }
        guard parts.count == 2, let a = Double(parts[0]), let b = Double(parts[1]) else { return nil }
        return (a, b)
    }

    /// Finds `H DD° MM.MMM'` for hemisphere letters `positive`/`negative`. With `firstHalf` the
    /// axis is read from the start of the text; otherwise from the second hemisphere letter on.
    private static func geocachingAxis(_ text: String, positive: String, negative: String, firstHalf: Bool) -> Double? {
        let upper = text.uppercased()
        let letters = Set(positive + negative)
        guard let start = upper.firstIndex(where: { letters.contains($0) }) else { return nil }
        if firstHalf, start != upper.startIndex { return nil }
        let sign: Double = upper[start] == Character(negative) ? -1 : 1
        var rest = upper[upper.index(after: start)...]
        // The axis ends where the other axis's hemisphere letter starts.
        if let end = rest.firstIndex(where: { "NSEW".contains($0) }) { rest = rest[..<end] }
        let numbers = rest.split(whereSeparator: { " °'’′\u{00BA}".contains($0) }).filter { !$0.isEmpty }
        guard numbers.count == 2, let d = Double(numbers[0]), let m = Double(numbers[1]),
              d >= 0, d == d.rounded(), m >= 0, m < 60 else { return nil }
        return sign * (d + m / 60)
    }
}

extension String {
    func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
