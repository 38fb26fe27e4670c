import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import Interchange

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a hunt's caches as GPX or GeoJSON for other geocaching tools.",
        discussion: """
        gpx: GPX 1.0 with the Groundspeak 1.0.1 cache extension, which c:geo, GSAK and Garmin \
        devices load. When the hunt was imported, its NAME.geocaching.json adds type, container, \
        owner, attributes, long description, parking and stage waypoints and travel bugs.
        geojson: a FeatureCollection of the caches for QGIS, Leaflet or geojson.io (messages are \
        left out: they are the reward for a find).

        Examples:
          geoqr export town --format gpx -o town.gpx
          geoqr export demo --format geojson -o demo.geojson
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case gpx, geojson, fieldnotes
    }

    @Argument(help: "Hunt name or hunt file.")
    var hunt: String

    @Option(help: "gpx, geojson, or fieldnotes (player exports).")
    var format: Format = .gpx

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file; - for standard output.", valueName: "FILE"))
    var output = "-"

    @Option(help: ArgumentHelp("Export this player's finds instead of the caches.", valueName: "NAME"))
    var player: String?

    func validate() throws {
        if player == nil, format == .fieldnotes {
            throw ValidationError("--format fieldnotes exports a player's finds: add --player NAME")
        }
    }

    func run() throws {
        if let player {
            // The writers (GPXWriter.finds, FieldNotes, GeoJSON.finds) are ready; the finds come
            // from the game ledger, which is not built yet.
            throw fail("--player \(player): player exports need the game ledger, which GeoQR does not have yet")
        }
        let parsed = try loadHunt(hunt)
        let huntPath = HuntLibrary().path(for: hunt)
        let sidecar = try readSidecar(besideHuntFile: huntPath, huntID: parsed.hunt.id)
        let data: Data
        switch format {
        case .gpx: data = GPXWriter.hunt(parsed.hunt, sidecar: sidecar, generated: Date())
        case .geojson: data = try GeoJSON.caches(of: parsed.hunt)
        case .fieldnotes: throw fail("--format fieldnotes exports a player's finds: add --player NAME")
        }
        do { try FileAccess.write(data, to: output) } catch { throw fail(error.description) }
        if output != "-" {
            warn("\(parsed.hunt.caches.count) caches → \(output) (\(format.rawValue)\(sidecar == nil ? "" : ", with geocaching data"))")
        }
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
            throw fail("\(file): \(error)")
        } catch {
            throw fail("\(error)")
        }
    }
}
