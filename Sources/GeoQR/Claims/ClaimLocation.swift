import Foundation

/// Where a claim was made, and how sure that is.
///
/// ```swift
/// let fromPhoto = ClaimLocation(coordinate: Coordinate(latitude: 40.6279, longitude: -8.6599),
///                               source: .exif, time: gpsTime)
/// let fromPhone = ClaimLocation(coordinate: here, accuracy: 18, source: .browser)
/// ```
public struct ClaimLocation: Sendable, Equatable {
    /// Where the claim says it was made.
    public var coordinate: Coordinate
    /// Radius of uncertainty in metres (a browser reports one); nil when unknown.
    public var accuracy: Double?
    /// Who says so.
    public var source: LocationSource
    /// When the position was fixed (a photo's GPS time stamp, a browser's fix time), if known.
    public var time: Date?

    public init(coordinate: Coordinate, accuracy: Double? = nil, source: LocationSource, time: Date? = nil) {
        self.coordinate = coordinate
        self.accuracy = accuracy
        self.source = source
        self.time = time
    }
}

/// Where a claim's location came from. The raw values are the stable codes in JSON.
///
/// ```swift
/// LocationSource.exif.rawValue   // "exif"
/// ```
public enum LocationSource: String, CaseIterable, Sendable, Codable {
    /// The photo's own EXIF GPS tags.
    case exif
    /// Given by hand on the command line (`--at LAT,LON`).
    case at
    /// The phone browser's geolocation, with its accuracy.
    case browser
    /// A fixed scanning station set up at a known place.
    case station
}

extension ClaimLocation {
    /// An accuracy as a phone or a command gives it, checked: a distance in metres, 0 or more
    /// (nil, none given, passes).
    ///
    /// ```swift
    /// let accuracy = try ClaimLocation.checkedAccuracy(body.accuracy)   // -3 throws
    /// ```
    public static func checkedAccuracy(_ accuracy: Double?) throws(BadAccuracy) -> Double? {
        if let accuracy, !(accuracy.isFinite && accuracy >= 0) { throw BadAccuracy(value: accuracy) }
        return accuracy
    }
}

/// An accuracy that is not a distance in metres (negative, infinite, not a number).
public struct BadAccuracy: Error, Equatable, CustomStringConvertible {
    public let value: Double
    public var description: String { "accuracy \(value) is not a distance in metres (0 or more)" }
}
