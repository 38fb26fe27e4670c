import Foundation
import GeoQR

/// `geoqr import`'s whole job short of writing files: read a `.gpx` (streamed from disk) or a
/// zipped pocket query, map its waypoints, and check the hunt the way `HuntParser` will.
///
/// ```swift
/// let result = try GPXImport.run(path: "pq.zip", options: .init(huntID: "TOWN"))
/// try FileAccess.write(result.huntFile, to: "caches/town.json")
/// ```
public enum GPXImport {
    /// The import and the hunt file bytes, already checked by ``HuntParser``.
    public struct Output: Sendable {
        public var result: HuntImport.Result
        public var huntFile: Data
        /// The hunt as `HuntParser` reads `huntFile` back, and its warnings.
        public var parsed: ParsedHunt
    }

    /// Reads `path` (`.zip` by extension, or by its `PK` signature; else GPX).
    public static func run(path: String, options: HuntImport.Options, outputName: String = "hunt",
                           schema: String? = nil) throws -> Output {
        var importer = HuntImport(options: options)
        if isZip(path) {
            for document in try ZipPocketQuery.documents(in: path) {
                let stream = try XMLStream(data: document.data, name: document.name)
                let info = try GPXReader.read(stream) { importer.add($0, fromCompanion: document.isCompanion) }
                importer.noteDocument(document.name, info: info)
            }
        } else {
            let companion = companionPath(of: path)
            let stream = try XMLStream(file: path)
            let info = try GPXReader.read(stream) { importer.add($0) }
            importer.noteDocument(path, info: info)
            if let companion {
                let info = try GPXReader.read(try XMLStream(file: companion)) { importer.add($0, fromCompanion: true) }
                importer.noteDocument(companion, info: info)
            }
        }
        let result = try importer.finish()
        let data = HuntFileWriter.data(result.hunt, description: result.description, schema: schema)
        let parsed = try HuntParser.parse(data, file: outputName)
        return Output(result: result, huntFile: data, parsed: parsed)
    }

    /// `1234567.gpx` has its waypoints in `1234567-wpts.gpx` when that file is beside it.
    static func companionPath(of path: String) -> String? {
        guard path.lowercased().hasSuffix(".gpx"), !ZipPocketQuery.isCompanion(path) else { return nil }
        let candidate = String(path.dropLast(4)) + "-wpts.gpx"
        return FileManager.default.isReadableFile(atPath: candidate) ? candidate : nil
    }

    public static func isZip(_ path: String) -> Bool {
        if path.lowercased().hasSuffix(".zip") { return true }
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 2)) == Data("PK".utf8)
    }
}
