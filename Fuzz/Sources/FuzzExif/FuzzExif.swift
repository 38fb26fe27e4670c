import Foundation
import GeoQR
import PhotoMetadata

// EXIF as `geoqr scan`, `geoqr claim` and the claim-photo route read it: the whole file's
// bytes (JPEG APP1, PNG eXIf, bare TIFF or `Exif\0\0`), and the same bytes as a HEIF Exif
// item. Then what the claim does with it: the GPS position and the photo's time.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExif(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    for metadata in [PhotoMetadata(fileBytes: bytes), PhotoMetadata(heifExifBlock: bytes)] {
        guard let metadata else { continue }
        if let here = metadata.coordinate {
            precondition(here.latitude.isFinite && here.longitude.isFinite, "EXIF GPS gave \(here)")
            _ = try? Coordinate.checked(latitude: here.latitude, longitude: here.longitude)
        }
        _ = metadata.takenAt(assuming: TimeZone(identifier: "Europe/Lisbon")!)
        _ = metadata.gpsTime?.timeIntervalSince1970
    }
    return 0
}
