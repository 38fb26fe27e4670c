import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import Interchange
import Ledger

struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a hunt's caches as GPX or GeoJSON, or its courses as IOF XML, for other tools.",
        discussion: """
        gpx: GPX 1.0 with the Groundspeak 1.0.1 cache extension, which c:geo, GSAK and Garmin \
        devices load. When the hunt was imported, its NAME.geocaching.json adds type, container, \
        owner, attributes, long description, parking and stage waypoints and travel bugs.
        geojson: a FeatureCollection of the caches for QGIS, Leaflet or geojson.io (messages are \
        left out: they are the reward for a find).
        iof-courses: the hunt's courses as an IOF XML 3.0 CourseData file (controls with their \
        latitude and longitude, courses with their controls in order, score points), which \
        orienteering software (Purple Pen, OCAD, MeOS, Livelox) reads; a score course's time \
        limit and penalty travel in a GeoQR extension that other programs skip.

        Examples:
          geoqr export town --format gpx -o town.gpx
          geoqr export demo --format geojson -o demo.geojson
          geoqr export park-o --format iof-courses -o park-o.courses.xml
          geoqr export demo --player Ana --format fieldnotes -o ana.txt
        With --player, the player's finds from the game ledger in the data directory: gpx \
        (Geocache Found waypoints with a "Found it" log), fieldnotes (UTF-16 text that \
        geocaching sites accept for upload) or geojson.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case gpx, geojson, fieldnotes
        case iofCourses = "iof-courses"
    }

    @Argument(help: "Hunt name or hunt file.")
    var hunt: String

    @Option(help: "gpx, geojson, iof-courses, or fieldnotes (player exports).")
    var format: Format = .gpx

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file; - for standard output.", valueName: "FILE"))
    var output = "-"

    @Option(help: ArgumentHelp("Export this player's finds instead of the caches.", valueName: "NAME"))
    var player: String?

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if player == nil, format == .fieldnotes {
            throw ValidationError("--format fieldnotes exports a player's finds: add --player NAME")
        }
        if player != nil, format == .iofCourses {
            throw ValidationError("--format iof-courses exports the hunt's courses: drop --player (results: geoqr results --format iof)")
        }
    }

    func run() async throws {
        if let player {
            try await exportFinds(of: player)
            return
        }
        let parsed = try loadHunt(hunt)
        let huntPath = HuntLibrary().path(for: hunt)
        let sidecar = try readSidecar(besideHuntFile: huntPath, huntID: parsed.hunt.id)
        let data: Data
        switch format {
        case .gpx: data = GPXWriter.hunt(parsed.hunt, sidecar: sidecar, generated: Date())
        case .geojson: data = try GeoJSON.caches(of: parsed.hunt)
        case .fieldnotes: throw CommandFailure("--format fieldnotes exports a player's finds: add --player NAME")
        case .iofCourses:
            guard !parsed.hunt.courses.isEmpty else { throw CommandFailure("\(hunt): has no courses to export as IOF XML") }
            data = Data(IOFWriter.courseData(parsed.hunt, created: Date()).utf8)
        }
        do { try FileAccess.write(data, to: output) } catch { throw CommandFailure(error.description) }
        if output != "-" {
            warn("\(format == .iofCourses ? "\(parsed.hunt.courses.count) courses" : "\(parsed.hunt.caches.count) caches") → \(output) (\(format.rawValue)\(sidecar == nil ? "" : ", with geocaching data"))")
        }
    }

    /// A player's finds (voided ones left out) in the format asked for.
    private func exportFinds(of name: String) async throws {
        let h = try loadHunt(hunt, quietWarnings: true).hunt
        let store = try await storeOptions.ledger(data: dataOptions, mustExist: true)
        let found: [Find]
        do {
            guard let player = try await store.player(hunt: h.id, named: name) else {
                throw CommandFailure("--player \(name): no such player in hunt \(h.id)")
            }
            found = try await store.liveFinds(hunt: h.id, player: player.id)
        } catch { throw CommandFailure.from(error) }
        let logs = found.sorted { $0.time < $1.time }.compactMap { find -> FoundLog? in
            guard let cache = h.cache(id: find.cache) else { return nil }
            return FoundLog(cacheID: cache.id, cacheName: cache.name, coordinate: cache.coordinate,
                            foundAt: find.time, text: "Found with GeoQR in \(h.name).")
        }
        let data: Data
        switch format {
        case .gpx: data = GPXWriter.finds(logs, player: name, generated: Date())
        case .fieldnotes: data = FieldNotes.data(logs)
        case .geojson: data = try GeoJSON.finds(logs, player: name)
        case .iofCourses: throw CommandFailure("--format iof-courses exports the hunt's courses: drop --player")
        }
        do { try FileAccess.write(data, to: output) } catch { throw CommandFailure(error.description) }
        if output != "-" { warn("\(logs.count) finds of \(name) → \(output) (\(format.rawValue))") }
    }

    /// The sidecar beside the hunt file, if there is one for this hunt.
    private func readSidecar(besideHuntFile path: String, huntID: String) throws -> GeocachingSidecar? {
        let file = GeocachingSidecar.path(besideHuntFile: path)
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        do {
            let sidecar = try GeocachingSidecar.decode(try FileAccess.read(file, limit: 256 << 20), file: file)
            guard sidecar.hunt == huntID else {
                warn("\(file): describes hunt \(sidecar.hunt), not \(huntID); not used")
                return nil
            }
            return sidecar
        } catch let error as FileError {
            throw CommandFailure("\(file): \(error)")
        } catch {
            throw CommandFailure("\(error)")
        }
    }
}
