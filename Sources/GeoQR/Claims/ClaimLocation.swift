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
