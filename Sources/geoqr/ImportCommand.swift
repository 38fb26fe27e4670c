import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import Interchange

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Start a hunt from a GPX file or a zipped pocket query.",
        discussion: """
        Reads GPX 1.0 and 1.1 with the Groundspeak (1.0, 1.0.1), Opencaching and GSAK extensions, \
        and zipped pocket queries with their -wpts.gpx companion (a -wpts.gpx beside a .gpx is read \
        too). Each geocache becomes a cache whose id is its waypoint code; parking and stage \
        waypoints attach to their cache. What a hunt file has no field for (type, container, owner, \
        attributes, long description, waypoints, travel bugs) goes to NAME.geocaching.json beside \
        the hunt file. Archived and unavailable caches are skipped unless --include-archived. \
        A summary of what was skipped or changed ends the run (on standard error, or in --json).

        Examples:
          geoqr import pq.zip -o caches/town.json
          geoqr import mycaches.gpx -o caches/club.json --id CLUB --name "Club night"
        """
    )

    @Argument(help: ArgumentHelp("A .gpx file or a pocket query .zip.", valueName: "FILE"))
    var file: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Hunt file to write, e.g. caches/NAME.json.", valueName: "FILE"))
    var output: String

    @Flag(name: .customLong("include-archived"), help: "Keep archived and unavailable caches.")
    var includeArchived = false

    @Option(help: ArgumentHelp("Hunt id (default: from the output file name).", valueName: "HUNTID"))
    var id: String?

    @Option(help: "Hunt name (default: the GPX file's name).")
    var name: String?

    @Option(help: "Default claim radius in metres.")
    var radius: Double = 80

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
        guard radius > 0, radius <= HuntParser.maxRadius else {
            throw ValidationError("--radius \(radius): a radius is more than 0 and at most \(Int(HuntParser.maxRadius)) m")
        }
    }

    func run() throws {
        let canonical = (try? CodeAlphabet.canonicalID(huntID, maxLength: CodeAlphabet.maxHuntIDLength).get()) ?? huntID
        let options = HuntImport.Options(huntID: canonical, huntName: name, includeArchived: includeArchived, radius: radius)
        let directory = (output as NSString).deletingLastPathComponent
        let schemaBeside = ((directory.isEmpty ? "." : directory) as NSString).appendingPathComponent("hunt.schema.json")
        let schema = FileManager.default.fileExists(atPath: schemaBeside) ? "./hunt.schema.json" : nil
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

struct ImportResult: Encodable {
    let hunt: String
    let file: String
    let sidecar: String
    let report: ImportReport
    let warnings: [String]
}
