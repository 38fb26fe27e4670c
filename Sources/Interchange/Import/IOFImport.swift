import Foundation
import GeoQR

/// `geoqr import`'s job for an IOF XML 3.0 `CourseData` file (Purple Pen, OCAD, Condes, or
/// `geoqr export --format iof-courses`): controls with positions become caches, courses become
/// courses, and the hunt file is checked the way `HuntParser` will read it.
///
/// ```swift
/// let out = try IOFImport.run(data, file: "park.xml", id: "PARK", name: nil, radius: 25)
/// try FileAccess.write(out.huntFile, to: "caches/park.json")
/// out.notes   // what the reader assumed: a shared start split per course, a default time limit…
/// ```
public enum IOFImport {
    /// A claim radius for controls (metres) when none is asked for: MapRun punches within 15 m;
    /// a phone's fix under trees is often worse, and controls are rarely closer than 60 m.
    public static let standardRadius: Double = 25

    public struct Output: Sendable {
        public var huntFile: Data
        /// The hunt as `HuntParser` reads `huntFile` back, and its warnings.
        public var parsed: ParsedHunt
        /// One line per assumption or change the reader made (`FILE:LINE: …`).
        public var notes: [String]
    }

    /// Whether `head` (a file's first bytes) is an IOF XML 3.0 document rather than GPX.
    public static func looksLikeIOF(_ head: Data) -> Bool {
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        return text.contains("<CourseData") || text.contains("datastandard/3.0")
    }

    /// Reads `data` (the file `file`) into a hunt called `name` (else the event's name, else
    /// the file's) with claim radius `radius`.
    /// - throws: ``IOFError`` for a file GeoQR cannot use; `HuntFileError` if the hunt made
    ///   breaks a hunt-file rule.
    public static func run(_ data: Data, file: String, id: String, name: String?, radius: Double,
                           outputName: String = "hunt", schema: String? = nil) throws -> Output {
        let courses = try IOFCourseReader.read(data, file: file)
        let title = name ?? courses.event ?? ((file as NSString).lastPathComponent as NSString).deletingPathExtension
        var hunt = try courses.hunt(id: id, name: title)
        hunt.defaultRadius = radius
        let description = "Imported from \((file as NSString).lastPathComponent) (IOF XML 3.0 CourseData)"
        let huntFile = HuntFileWriter.data(hunt, description: description, schema: schema)
        let parsed = try HuntParser.parse(huntFile, file: outputName)
        return Output(huntFile: huntFile, parsed: parsed, notes: courses.notes)
    }
}
