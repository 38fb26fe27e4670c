import Foundation
import GeoQR

/// Where and when a photo was taken, as its EXIF tags say: GPS position (signed by its N/S/E/W
/// references), altitude, GPS time (UTC), the camera clock's DateTimeOriginal with its offset
/// when recorded, and orientation. Every field is optional: cameras write what they know.
///
/// ```swift
/// if let meta = PhotoMetadata(fileBytes: jpegBytes), let here = meta.coordinate {
///     print(here.geocachingForm, meta.gpsTime ?? meta.takenAt(assuming: .current) as Any)
/// }
/// ```
public struct PhotoMetadata: Sendable, Equatable {
    /// GPS latitude and longitude; south and west are negative.
    public var coordinate: Coordinate?
    /// Metres above sea level (negative below), from GPSAltitude and GPSAltitudeRef.
    public var altitude: Double?
    /// Horizontal positioning error in metres (GPSHPositioningError), when the camera wrote one.
    public var accuracy: Double?
    /// When the GPS fix was made, from GPSDateStamp and GPSTimeStamp (always UTC).
    public var gpsTime: Date?
    /// DateTimeOriginal as the camera's clock showed it, with no time zone of its own.
    public var takenAtLocal: DateComponents?
    /// OffsetTimeOriginal (`+01:00`) in seconds east of UTC, when recorded.
    public var takenAtOffset: Int?
    /// EXIF orientation, 1…8 (1: as stored).
    public var orientation: Int?

    public init(coordinate: Coordinate? = nil, altitude: Double? = nil, accuracy: Double? = nil, gpsTime: Date? = nil,
                takenAtLocal: DateComponents? = nil, takenAtOffset: Int? = nil, orientation: Int? = nil) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.accuracy = accuracy
        self.gpsTime = gpsTime
        self.takenAtLocal = takenAtLocal
        self.takenAtOffset = takenAtOffset
        self.orientation = orientation
    }

    /// DateTimeOriginal as an instant: with its recorded offset if there is one, otherwise in
    /// `zone` (the camera's clock is usually set to local time where the photo was taken).
    public func takenAt(assuming zone: TimeZone) -> Date? {
        guard var components = takenAtLocal else { return nil }
        components.timeZone = takenAtOffset.flatMap(TimeZone.init(secondsFromGMT:)) ?? zone
        return Calendar(identifier: .gregorian).date(from: components)
    }
}

extension PhotoMetadata {
    /// The EXIF of a JPEG (its `Exif` APP1 segment), a PNG (its `eXIf` chunk), or a bare
    /// TIFF/`Exif\0\0` block; nil when there is none or it is unreadable. HEIC files keep EXIF
    /// in a metadata item that only libheif finds: pass that to ``init(heifExifBlock:)``.
    public init?(fileBytes: some Collection<UInt8>) {
        guard let payload = ExifLocator.payload(inFile: Array(fileBytes)) else { return nil }
        self.init(exifPayload: payload)
    }

    /// The EXIF metadata block of a HEIF image, as libheif hands it out
    /// (`heif_image_handle_get_metadata`): a 4-byte offset to the TIFF header, then the block.
    public init?(heifExifBlock: some Collection<UInt8>) {
        guard let payload = ExifLocator.payload(heifBlock: Array(heifExifBlock)) else { return nil }
        self.init(exifPayload: payload)
    }

    /// A block that starts `Exif\0\0` and then a TIFF header.
    init?(exifPayload: [UInt8]) {
        guard let block = ExifBlock(exifPayload: exifPayload) else { return nil }
        self.init(reading: block)
    }
}
