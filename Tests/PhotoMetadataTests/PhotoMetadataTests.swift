import Foundation
import GeoQR
import Testing
@testable import PhotoMetadata

@Suite struct PhotoMetadataTests {
    /// A phone photo's EXIF: position, altitude, GPS time, camera time with offset, orientation.
    func phoneEXIF(lat: Double, lon: Double, littleEndian: Bool = true, status: String? = nil) -> TIFFWriter {
        var w = TIFFWriter(littleEndian: littleEndian)
        w.primary = [w.short(0x0112, 6)]
        w.exif = [w.ascii(0x9003, "2024:05:02 10:15:30"), w.ascii(0x9011, "+01:00")]
        w.gps = [w.ascii(0x0001, lat < 0 ? "S" : "N"), w.dms(0x0002, lat),
                 w.ascii(0x0003, lon < 0 ? "W" : "E"), w.dms(0x0004, lon),
                 w.byte(0x0005, 1), w.rationals(0x0006, [(125, 10)]),
                 w.rationals(0x0007, [(9, 1), (15, 1), (2950, 100)]), w.ascii(0x001D, "2024:05:02"),
                 w.rationals(0x001F, [(8, 1)])]
        if let status { w.gps.append(w.ascii(0x0009, status)) }
        return w
    }

    /// A real JPEG from cjpeg: 16×16 grey.
    func plainJPEG() throws -> [UInt8] {
        let pgm = Array("P5\n16 16\n255\n".utf8) + [UInt8](repeating: 128, count: 256)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["cjpeg", "-quality", "90"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(pgm))
        try input.fileHandleForWriting.close()
        let jpeg = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "cjpeg (libjpeg-turbo-progs) makes the test JPEG")
        return Array(jpeg)
    }

    @Test("south and west come out negative, in both byte orders", arguments: [
        (40.6279, -8.6599, true), (-33.8568, 151.2153, false), (-22.9519, -43.2105, true), (51.5007, 0.1246, false),
    ])
    func hemispheres(lat: Double, lon: Double, little: Bool) throws {
        let jpeg = insertingAPP1(phoneEXIF(lat: lat, lon: lon, littleEndian: little).exifPayload(), into: try plainJPEG())
        let meta = try #require(PhotoMetadata(fileBytes: jpeg))
        let here = try #require(meta.coordinate)
        #expect(abs(here.latitude - lat) < 1e-6 && abs(here.longitude - lon) < 1e-6, "\(here)")
        #expect(meta.altitude == -12.5, "ref 1 is below sea level")
        #expect(meta.accuracy == 8)
        #expect(meta.orientation == 6)
    }

    @Test func timesAreUTCAndLocalWithOffset() throws {
        let meta = try #require(PhotoMetadata(fileBytes: phoneEXIF(lat: 1, lon: 1).tiff()))
        let utc = ISO8601DateFormatter()
        #expect(meta.gpsTime == utc.date(from: "2024-05-02T09:15:29Z")!.addingTimeInterval(0.5))
        #expect(meta.takenAtOffset == 3600)
        #expect(meta.takenAt(assuming: TimeZone(identifier: "Asia/Tokyo")!) == utc.date(from: "2024-05-02T09:15:30Z"),
                "a recorded offset beats the assumed zone")
        var noOffset = meta
        noOffset.takenAtOffset = nil
        #expect(noOffset.takenAt(assuming: TimeZone(secondsFromGMT: -3 * 3600)!) == utc.date(from: "2024-05-02T13:15:30Z"))
    }

    @Test func aVoidFixIsNoPosition() throws {
        let meta = try #require(PhotoMetadata(fileBytes: phoneEXIF(lat: 40, lon: -8, status: "V").tiff()))
        #expect(meta.coordinate == nil && meta.altitude == nil)
        #expect(meta.takenAtLocal != nil)
        #expect(PhotoMetadata(fileBytes: phoneEXIF(lat: 40, lon: -8, status: "A").tiff())?.coordinate != nil)
    }

    @Test func aPhotoWithoutGPSStillHasItsTime() throws {
        var w = phoneEXIF(lat: 0, lon: 0)
        w.gps = []
        let meta = try #require(PhotoMetadata(fileBytes: insertingAPP1(w.exifPayload(), into: try plainJPEG())))
        #expect(meta.coordinate == nil && meta.gpsTime == nil)
        #expect(meta.takenAtLocal?.hour == 10)
    }

    @Test func aMissingReferenceOrAnImpossibleValueIsNoPosition() throws {
        var w = phoneEXIF(lat: 40, lon: -8)
        w.gps.removeAll { $0.tag == 0x0003 }
        #expect(PhotoMetadata(fileBytes: w.tiff())?.coordinate == nil)
        var zero = phoneEXIF(lat: 40, lon: -8)
        zero.gps[1] = zero.rationals(0x0002, [(40, 1), (0, 0), (0, 1)])
        #expect(PhotoMetadata(fileBytes: zero.tiff())?.coordinate == nil, "zero denominator")
        var far = phoneEXIF(lat: 40, lon: -8)
        far.gps[1] = far.rationals(0x0002, [(95, 1), (0, 1), (0, 1)])
        #expect(PhotoMetadata(fileBytes: far.tiff())?.coordinate == nil, "95° is no latitude")
    }

    @Test func exifAfterAnXMPSegmentIsFound() throws {
        let xmp = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8)
        let jpeg = insertingAPP1(phoneEXIF(lat: 10, lon: 20).exifPayload(), into: insertingAPP1(xmp, into: try plainJPEG()))
        let reordered = insertingAPP1(xmp, into: jpeg)
        #expect(PhotoMetadata(fileBytes: reordered)?.coordinate != nil)
        #expect(PhotoMetadata(fileBytes: insertingAPP1(xmp, into: try plainJPEG())) == nil)
        #expect(PhotoMetadata(fileBytes: try plainJPEG()) == nil)
    }

    @Test func pngCarriesEXIFInAnEXIfChunk() throws {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let n = UInt32(data.count)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8) + data + [0, 0, 0, 0]
        }
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", [UInt8](repeating: 0, count: 13))
            + chunk("eXIf", phoneEXIF(lat: -1.5, lon: -2.5).tiff()) + chunk("IEND", [])
        let here = try #require(PhotoMetadata(fileBytes: png)?.coordinate)
        #expect(abs(here.latitude + 1.5) < 1e-6 && abs(here.longitude + 2.5) < 1e-6)
    }

    @Test func heifBlocksWithAndWithoutTheExifHeader() throws {
        let tiff = phoneEXIF(lat: 48.8584, lon: 2.2945).tiff()
        #expect(PhotoMetadata(heifExifBlock: [0, 0, 0, 0] + tiff)?.coordinate != nil)
        #expect(PhotoMetadata(heifExifBlock: [0, 0, 0, 6] + Array("Exif".utf8) + [0, 0] + tiff)?.coordinate != nil)
        #expect(PhotoMetadata(heifExifBlock: [0xFF, 0xFF, 0xFF, 0xFF] + tiff) == nil)
        #expect(PhotoMetadata(heifExifBlock: [0, 0]) == nil)
    }

    @Test func damagedEXIFNeverCrashes() throws {
        let jpeg = insertingAPP1(phoneEXIF(lat: 40, lon: -8).exifPayload(), into: try plainJPEG())
        for n in 0...jpeg.count { _ = PhotoMetadata(fileBytes: jpeg.prefix(n)) }
        let tiff = phoneEXIF(lat: 40, lon: -8, littleEndian: false).tiff()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            var bad = tiff
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                bad[Int.random(in: 4..<bad.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if let meta = PhotoMetadata(fileBytes: bad), let c = meta.coordinate {
                #expect((-90...90).contains(c.latitude) && (-180...180).contains(c.longitude))
            }
        }
        // A segment length that runs past the end, and a text file.
        #expect(PhotoMetadata(fileBytes: [0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF] + Array("Exif".utf8)) == nil)
        #expect(PhotoMetadata(fileBytes: Array("hello, world".utf8)) == nil)
    }
}
