import Foundation
import GeoQR

/// Finds and reads hunt files: a path to a `.json` file, or a hunt name looked up in the
/// caches folder (`./caches`, or `GEOQR_CACHES`).
///
/// ```swift
/// let parsed = try HuntLibrary().load("demo")       // caches/demo.json
/// let other = try HuntLibrary().load("hunts/town.json")
/// ```
public struct HuntLibrary: Sendable {
    /// Hunt files larger than this are refused before reading: a hunt of 10,000 caches is
    /// about 3 MB.
    public static let maxFileSize = 16 << 20

    public let cachesFolder: String

    public init(cachesFolder: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.cachesFolder = cachesFolder ?? environment["GEOQR_CACHES"] ?? "caches"
    }

    /// The file a hunt argument names.
    public func path(for argument: String) -> String {
        if argument.hasSuffix(".json") || argument.contains("/") { return argument }
        return (cachesFolder as NSString).appendingPathComponent(argument + ".json")
    }

    /// Reads and checks a hunt; errors name the file, field and value.
    public func load(_ argument: String) throws(HuntFileError) -> ParsedHunt {
        let file = path(for: argument)
        let data: Data
        do {
            data = try FileAccess.read(file, limit: Self.maxFileSize)
        } catch {
            var message = error.description
            if case .missing = error, !argument.contains("/"), !argument.hasSuffix(".json") {
                message += "; hunts here: " + (available().joined(separator: ", ").nonEmpty ?? "none")
            }
            throw HuntFileError([HuntProblem(file: file, path: "", message: message)])
        }
        return try HuntParser.parse(data, file: file)
    }

    /// Hunt names in the caches folder.
    public func available() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cachesFolder)) ?? []
        return names.filter { $0.hasSuffix(".json") && $0 != "hunt.schema.json" }
            .map { String($0.dropLast(5)) }.sorted()
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
