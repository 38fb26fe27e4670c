import Foundation
import GeoQR
@testable import Interchange

/// Path of a fixture file shipped with the test bundle.
func fixture(_ name: String) -> String {
    Bundle.module.url(forResource: "Fixtures/\(name)", withExtension: nil)!.path
}

/// A fresh folder for one test's files, which the test removes when it ends (`defer`).
func scratchDirectory() -> String {
    let dir = NSTemporaryDirectory() + "geoqr-interchange-\(UUID().uuidString)"
    try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
}

func write(_ text: String, to path: String) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
}

/// Every waypoint of a GPX document given as text.
func waypoints(in gpx: String, name: String = "test.gpx") throws -> [GPXWaypoint] {
    var all: [GPXWaypoint] = []
    try GPXReader.read(try XMLStream(data: Data(gpx.utf8), name: name)) { all.append($0) }
    return all
}

/// Imports a file with the defaults the CLI uses.
func importFile(_ path: String, id: String = "TEST", includeArchived: Bool = false) throws -> GPXImport.Output {
    try GPXImport.run(path: path, options: .init(huntID: id, includeArchived: includeArchived), outputName: "caches/test.json")
}

/// The error an import throws, as the CLI prints it.
func importError(_ path: String) -> String? {
    do { _ = try importFile(path); return nil } catch { return "\(error)" }
}

/// A GPX 1.0 document around some waypoint XML.
func gpx10(_ body: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.0" creator="test" xmlns="http://www.topografix.com/GPX/1/0" xmlns:groundspeak="http://www.groundspeak.com/cache/1/0/1">
    \(body)
    </gpx>
    """
}

/// The package root, found from this file's path, and the debug build's geoqr binary.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a command and waits; output is read after exit (the outputs here are small).
func run(_ executable: String, _ arguments: [String], cwd: String? = nil) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let cwd { process.currentDirectoryURL = URL(fileURLWithPath: cwd) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
               stderr: String(decoding: stderr, as: UTF8.self))
}

/// Makes a zip of the given files with the `zip` command (Debian package `zip`).
func makeZip(_ zipPath: String, files: [String: String]) throws {
    let dir = scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    for (name, text) in files { write(text, to: "\(dir)/\(name)") }
    let r = try run("/usr/bin/zip", ["-q", "-j", zipPath] + files.keys.sorted().map { "\(dir)/\($0)" })
    precondition(r.status == 0, "zip failed: \(r.stderr)")
}
