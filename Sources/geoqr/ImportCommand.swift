import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import Interchange

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Start a hunt from a GPX file, a zipped pocket query or an IOF course file.",
        discussion: """
        Reads GPX 1.0 and 1.1 with the Groundspeak (1.0, 1.0.1), Opencaching and GSAK extensions, \
        and zipped pocket queries with their -wpts.gpx companion (a -wpts.gpx beside a .gpx is read \
        too). Each geocache becomes a cache whose id is its waypoint code; parking and stage \
        waypoints attach to their cache. What a hunt file has no field for (type, container, owner, \
        attributes, long description, waypoints, travel bugs) goes to NAME.geocaching.json beside \
        the hunt file. Archived and unavailable caches are skipped unless --include-archived. \
        A summary of what was skipped or changed ends the run (on standard error, or in --json).

        An IOF XML 3.0 CourseData file, as Purple Pen, OCAD or Condes export it (or geoqr export \
        --format iof-courses), becomes a hunt with courses: each control with a position becomes a \
        cache, each course a course (a score course when its controls carry scores). A start that \
        several courses share becomes one start code per course. The claim radius defaults to \
        \(Int(IOFImport.standardRadius)) m for controls.

        Examples:
          geoqr import pq.zip -o caches/town.json
          geoqr import mycaches.gpx -o caches/club.json --id CLUB --name "Club night"
          geoqr import purplepen-courses.xml -o caches/park.json --name "Park score-O"
        """
    )

    @Argument(help: ArgumentHelp("A .gpx file, a pocket query .zip, or an IOF XML 3.0 CourseData .xml.", valueName: "FILE"))
    var file: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Hunt file to write, e.g. caches/NAME.json.", valueName: "FILE"))
    var output: String

    @Flag(name: .customLong("include-archived"), help: "Keep archived and unavailable caches.")
    var includeArchived = false

    @Option(help: ArgumentHelp("Hunt id (default: from the output file name).", valueName: "HUNTID"))
    var id: String?

    @Option(help: "Hunt name (default: the GPX file's name).")
    var name: String?

    @Option(help: ArgumentHelp("Default claim radius in metres (80 for geocaches, \(Int(IOFImport.standardRadius)) for IOF controls).",
                               valueName: "METRES"))
    var radius: Double?

    /// The radius for geocaches from GPX when none is given.
    static let gpxRadius: Double = 80

    @Flag(help: "Print the summary as JSON.")
    var json = false

    var huntID: String {
        id ?? ((output as NSString).lastPathComponent as NSString).deletingPathExtension
    }

    func validate() throws {
        guard output.hasSuffix(".json"), !output.hasSuffix(".geocaching.json") else {
            throw ValidationError("-o \(output): name a hunt file ending in .json, e.g. caches/town.json")
        }
        if case .failure(let problem) = CodeAlphabet.canonicalID(huntID, maxLength: CodeAlphabet.maxHuntIDLength) {
            throw ValidationError("hunt id \"\(huntID)\" \(problem); pass --id HUNTID")
        }
        if let radius, !(radius > 0 && radius <= HuntParser.maxRadius) {
            throw ValidationError("--radius \(radius): a radius is more than 0 and at most \(Int(HuntParser.maxRadius)) m")
        }
    }

    func run() throws {
        let canonical = (try? CodeAlphabet.canonicalID(huntID, maxLength: CodeAlphabet.maxHuntIDLength).get()) ?? huntID
        let directory = (output as NSString).deletingLastPathComponent
        let schemaBeside = ((directory.isEmpty ? "." : directory) as NSString).appendingPathComponent("hunt.schema.json")
        let schema = FileManager.default.fileExists(atPath: schemaBeside) ? "./hunt.schema.json" : nil
        if !GPXImport.isZip(file), IOFImport.looksLikeIOF(try head(of: file)) {
            return try importIOF(id: canonical, schema: schema)
        }
        let options = HuntImport.Options(huntID: canonical, huntName: name, includeArchived: includeArchived,
                                         radius: radius ?? Self.gpxRadius)
        let out: GPXImport.Output
        do {
            out = try GPXImport.run(path: file, options: options, outputName: output, schema: schema)
        } catch let error as XMLStreamError {
            throw CommandFailure(error.description)
        } catch let error as GPXError {
            throw CommandFailure(error.description)
        } catch let error as HuntFileError {
            throw CommandFailure("import made an invalid hunt: \(error)")
        }
        let sidecarPath = GeocachingSidecar.path(besideHuntFile: output)
        do {
            try FileAccess.write(try out.result.sidecar.encoded(), to: sidecarPath)
            try FileAccess.write(out.huntFile, to: output)
        } catch let error as FileError {
            throw CommandFailure(error.description)
        }
        let report = out.result.report
        let overlaps = out.parsed.warnings.count
        if json {
            try printJSON(ImportResult(hunt: out.parsed.hunt.id, file: output, sidecar: sidecarPath, report: report,
                                       warnings: out.parsed.warnings.map(\.description)))
            return
        }
        print("\(out.parsed.hunt.name) (\(out.parsed.hunt.id)): \(report.caches) caches → \(output), extra data → \(sidecarPath)")
        report.summaryLines().dropFirst().forEach { warn($0) }
        warn(report.summaryLines()[0])
        if overlaps > 0 {
            warn("\(overlaps) caches' claim circles overlap another's (first: \(out.parsed.warnings[0].message)); try a smaller --radius")
        }
    }
}

extension ImportCommand {
    /// The first bytes of `path`, to tell an IOF file from a GPX one.
    func head(of path: String) throws -> Data {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CommandFailure("\(path): cannot be read") }
        defer { try? handle.close() }
        return (try? handle.read(upToCount: 4096)) ?? Data()
    }

    /// An IOF CourseData file becomes a hunt with courses; what the reader assumed is told,
    /// one line each.
    func importIOF(id: String, schema: String?) throws {
        if includeArchived { throw CommandFailure("--include-archived is for geocaches; \(file) is an IOF course file") }
        let out: IOFImport.Output
        do {
            let data = try FileAccess.read(file, limit: ZipPocketQuery.maxEntrySize)
            out = try IOFImport.run(data, file: file, id: id, name: name, radius: radius ?? IOFImport.standardRadius,
                                    outputName: output, schema: schema)
        } catch let error as FileError {
            throw CommandFailure(error.description)
        } catch let error as IOFError {
            throw CommandFailure(error.description)
        } catch let error as HuntFileError {
            throw CommandFailure("import made an invalid hunt: \(error)")
        }
        do { try FileAccess.write(out.huntFile, to: output) } catch { throw CommandFailure(error.description) }
        let hunt = out.parsed.hunt
        if json {
            try printJSON(IOFImportResult(hunt: hunt.id, file: output, caches: hunt.caches.count, courses: hunt.courses.map(\.id),
                                          notes: out.notes, warnings: out.parsed.warnings.map(\.description)))
            return
        }
        print("\(hunt.name) (\(hunt.id)): \(hunt.caches.count) controls as caches, \(hunt.courses.count) courses (\(hunt.courses.map(\.id).joined(separator: ", "))) → \(output)")
        out.notes.forEach { warn($0) }
        if let first = out.parsed.warnings.first {
            warn("\(out.parsed.warnings.count) controls' claim circles overlap another's (first: \(first.message)); try a smaller --radius")
        }
    }
}

struct IOFImportResult: Encodable {
    let hunt: String
    let file: String
    let caches: Int
    let courses: [String]
    let notes: [String]
    let warnings: [String]
}

struct ImportResult: Encodable {
    let hunt: String
    let file: String
    let sidecar: String
    let report: ImportReport
    let warnings: [String]
}
