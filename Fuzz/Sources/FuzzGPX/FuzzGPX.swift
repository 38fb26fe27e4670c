import Foundation
import GeoQR
import Interchange

// GPX as `geoqr import` reads it (`GPXImport.run`, minus the file system): the document
// streamed by libxml2's reader, its waypoints mapped by the importer, the hunt written as a
// hunt file and read back by `HuntParser`. What the importer writes it must be able to read:
// a hunt file it makes that `HuntParser` rejects is a bug, not bad input.

let options = HuntImport.Options(huntID: "FUZZ", huntName: "Fuzzed pocket query")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGPX(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    var importer = HuntImport(options: options)
    do {
        let stream = try XMLStream(data: data, name: "fuzz.gpx")
        let info = try GPXReader.read(stream) { importer.add($0) }
        importer.noteDocument("fuzz.gpx", info: info)
    } catch {
        _ = "\(error)"
        return 0
    }
    let result: HuntImport.Result
    do { result = try importer.finish() } catch {
        _ = error.description
        return 0
    }
    let file = HuntFileWriter.data(result.hunt, description: result.description)
    do {
        _ = try HuntParser.parse(file, file: "caches/fuzz.json")
    } catch {
        preconditionFailure("imported hunt does not read back: \(error)\n\(String(decoding: file, as: UTF8.self))")
    }
    return 0
}
