import Foundation

extension GeoQRProcess {
    func data(_ relative: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path(relative))) }

    /// The JSON objects of `--json` output, one a line.
    static func jsonLines(_ r: Result) throws -> [[String: Any]] {
        try r.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
        }
    }
}

/// A PNG with an `eXIf` chunk after IHDR holding GPS latitude and longitude, as a phone that
/// saves PNG screenshots with location would.
func addingGPS(latitude: Double, longitude: Double, toPNG png: Data) -> Data {
    func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    let tiff = gpsTIFF(latitude: latitude, longitude: longitude)
    let body = Array("eXIf".utf8) + tiff
    let chunk = u32(tiff.count) + body + u32(Int(crc32(body)))
    let afterIHDR = 8 + 8 + 13 + 4
    return png.prefix(afterIHDR) + Data(chunk) + png.dropFirst(afterIHDR)
}

/// A big-endian TIFF (EXIF) block holding GPS latitude and longitude, and optionally an
/// orientation: IFD0 at 8 holds the orientation and the GPS pointer; the GPS IFD has four
/// entries whose rationals follow it.
func gpsTIFF(latitude: Double, longitude: Double, orientation: Int = 1) -> [UInt8] {
    func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    func dms(_ value: Double) -> [UInt8] {
        let a = abs(value), d = Int(a), m = Int((a - Double(d)) * 60)
        let s = Int((((a - Double(d)) * 60 - Double(m)) * 60 * 10_000).rounded())
        return u32(d) + u32(1) + u32(m) + u32(1) + u32(s) + u32(10_000)
    }
    let gpsIFD = 8 + 2 + 2 * 12 + 4
    var tiff: [UInt8] = Array("MM".utf8) + u16(42) + u32(8)
    tiff += u16(2) + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
    tiff += u16(0x8825) + u16(4) + u32(1) + u32(gpsIFD) + u32(0)
    let rationals = gpsIFD + 2 + 4 * 12 + 4
    tiff += u16(4)
    tiff += u16(1) + u16(2) + u32(2) + Array((latitude < 0 ? "S" : "N").utf8) + [0, 0, 0]
    tiff += u16(2) + u16(5) + u32(3) + u32(rationals)
    tiff += u16(3) + u16(2) + u32(2) + Array((longitude < 0 ? "W" : "E").utf8) + [0, 0, 0]
    tiff += u16(4) + u16(5) + u32(3) + u32(rationals + 24)
    tiff += u32(0) + dms(latitude) + dms(longitude)
    return tiff
}

/// A JPEG with an EXIF APP1 segment right after its start-of-image marker, as cameras write.
func addingEXIF(_ tiff: [UInt8], toJPEG jpeg: Data) -> Data {
    let payload = Array("Exif".utf8) + [0, 0] + tiff
    let length = payload.count + 2
    let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    return jpeg.prefix(2) + Data(segment) + jpeg.dropFirst(2)
}

/// PNG's CRC-32 (ISO 3309), bit by bit: tests only.
func crc32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}
