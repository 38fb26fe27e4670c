import Foundation
import ZIPFoundation

/// A zipped pocket query: `1234567.gpx` (the caches) and `1234567-wpts.gpx` (their parking and
/// stage waypoints), as geocaching.com sends them. Any `.gpx` entries are taken; `-wpts`
/// companions are read after the caches so their waypoints find their caches.
///
/// ```swift
/// for document in try ZipPocketQuery.documents(in: "pq.zip") {
///     print(document.name, document.isCompanion, document.data.count)
/// }
/// ```
public enum ZipPocketQuery {
    /// One GPX file taken out of the zip.
    public struct Document: Sendable {
        /// `pq.zip:1234567.gpx`, as errors name it.
        public var name: String
        public var data: Data
        /// True for a `-wpts.gpx` companion.
        public var isCompanion: Bool
    }

    /// Entries larger than this are refused before they are inflated (a zip bomb stops here).
    public static let maxEntrySize = 256 << 20

    /// The GPX documents in the zip, caches first, companions after.
    public static func documents(in path: String) throws(GPXError) -> [Document] {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw GPXError(document: path, line: nil,
                           message: exists ? "is not a complete zip archive (truncated or damaged)" : "no such file")
        }
        var names: [String] = []
        var gpx: [Entry] = []
        for entry in archive where entry.type == .file {
            names.append(entry.path)
            let base = (entry.path as NSString).lastPathComponent
            if entry.path.lowercased().hasSuffix(".gpx"), !entry.path.hasPrefix("__MACOSX/"), !base.hasPrefix("._") {
                gpx.append(entry)
            }
        }
        guard !gpx.isEmpty else {
            let listing = names.isEmpty ? "it is empty" : "entries: " + names.prefix(5).joined(separator: ", ")
            throw GPXError(document: path, line: nil, message: "has no .gpx file (\(listing))")
        }
        let ordered = gpx.filter { !isCompanion($0.path) } + gpx.filter { isCompanion($0.path) }
        return try ordered.map { entry throws(GPXError) in
            let name = "\(path):\(entry.path)"
            guard entry.uncompressedSize <= UInt64(maxEntrySize) else {
                throw GPXError(document: name, line: nil, message: "is \(entry.uncompressedSize) bytes unpacked, more than the \(maxEntrySize)-byte limit")
            }
            var data = Data()
            do {
                _ = try archive.extract(entry) { chunk in
                    data.append(chunk)
                    if data.count > maxEntrySize { throw Archive.ArchiveError.invalidEntrySize }
                }
            } catch {
                throw GPXError(document: name, line: nil, message: "cannot be unpacked (truncated or damaged zip: \(error))")
            }
            return Document(name: name, data: data, isCompanion: isCompanion(entry.path))
        }
    }

    static func isCompanion(_ path: String) -> Bool {
        path.lowercased().hasSuffix("-wpts.gpx") || path.lowercased().hasSuffix("_wpts.gpx")
    }
}
