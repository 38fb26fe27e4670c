import ArgumentParser
import Foundation
import GeoQR
import HuntFiles

struct CachesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caches",
        abstract: "Look at a hunt's caches.",
        subcommands: [ListCaches.self]
    )
}

struct ListCaches: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List a hunt's caches and check its file.",
        discussion: """
        Prints id, name, coordinates, claim radius and trail for each cache. Every problem in the \
        file is reported on its own line as FILE: FIELD: what is wrong, and the exit status is 1. \
        Caches whose claim circles overlap are warnings: the hunt still works.
        """
    )

    @Argument(help: "Hunt name (demo for caches/demo.json) or path to a hunt file.")
    var hunt: String

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() throws {
        let parsed: ParsedHunt
        do {
            parsed = try HuntLibrary().load(hunt)
        } catch {
            // Every problem, one per line: fixing a file is quicker with the whole list.
            error.problems.forEach { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
            throw ExitCode.failure
        }
        let h = parsed.hunt
        if json {
            try printJSON(CacheListing(hunt: h, warnings: parsed.warnings.map(\.description)))
            return
        }
        parsed.warnings.forEach { warn($0.description) }
        print("\(h.name) (\(h.id)): \(h.caches.count) caches, \(h.trails.count) trails, default radius \(Int(h.defaultRadius)) m")
        let rows = h.caches.map { c in
            [c.id, c.name, c.coordinate.geocachingForm, "\(Int(h.radius(of: c).rounded())) m", h.trail(of: c.id)?.name ?? "-"]
        }
        printTable(header: ["ID", "NAME", "COORDINATES", "RADIUS", "TRAIL"], rows: rows)
        guard !h.courses.isEmpty else { return }
        print("")
        printTable(header: ["COURSE", "NAME", "KIND", "START", "CONTROLS", "FINISH", "LIMIT"], rows: h.courses.map { c in
            [c.id, c.name, c.kind.rawValue, c.start ?? "mass start", c.controls.joined(separator: " "), c.finish,
             c.timeLimit.map { String(format: "%g min", $0 / 60) + (c.penaltyPerMinute > 0 ? ", -\(c.penaltyPerMinute)/min over" : "") } ?? "-"]
        })
    }
}

/// Columns padded to their widest cell, the last column left ragged.
func printTable(header: [String], rows: [[String]]) {
    let all = [header] + rows
    let widths = header.indices.map { i in all.map { $0[i].count }.max() ?? 0 }
    for row in all {
        let cells = row.enumerated().map { i, cell in
            i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0)
        }
        print(cells.joined(separator: "  "))
    }
}

/// `caches list --json`.
struct CacheListing: Encodable {
    struct Item: Encodable {
        let id, name: String
        let lat, lon: Double
        let coordinates: String
        let radius: Double
        let trail: String?
        let difficulty, terrain: Double
        let points: Int
    }
    struct CourseItem: Encodable {
        let id, name, kind: String
        let start: String?
        let controls: [String]
        let finish: String
        let timeLimitMinutes: Double?
        let penaltyPerMinute: Int
    }
    let id, name: String
    let radius: Double
    let caches: [Item]
    let courses: [CourseItem]
    let warnings: [String]

    init(hunt: Hunt, warnings: [String]) {
        id = hunt.id
        name = hunt.name
        radius = hunt.defaultRadius
        caches = hunt.caches.map { c in
            Item(id: c.id, name: c.name, lat: c.coordinate.latitude, lon: c.coordinate.longitude,
                 coordinates: c.coordinate.geocachingForm, radius: hunt.radius(of: c), trail: hunt.trail(of: c.id)?.id,
                 difficulty: c.difficulty, terrain: c.terrain, points: c.points)
        }
        courses = hunt.courses.map { c in
            CourseItem(id: c.id, name: c.name, kind: c.kind.rawValue, start: c.start, controls: c.controls, finish: c.finish,
                       timeLimitMinutes: c.timeLimit.map { $0 / 60 }, penaltyPerMinute: c.penaltyPerMinute)
        }
        self.warnings = warnings
    }
}
