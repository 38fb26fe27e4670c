import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import QRImaging

func warn(_ message: String) {
    FileHandle.standardError.write(Data("geoqr: \(message)\n".utf8))
}

/// Writes pretty, stable JSON to standard output.
func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    FileHandle.standardOutput.write(try encoder.encode(value))
    FileHandle.standardOutput.write(Data("\n".utf8))
}

/// True when standard error is a terminal, so progress can be drawn there.
var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

/// A one-line progress bar on standard error, drawn only on a terminal.
struct Progress {
    let label: String
    let total: Int
    let enabled = stderrIsTerminal

    func update(_ done: Int) {
        guard enabled, total > 0 else { return }
        let width = 30, filled = done * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        FileHandle.standardError.write(Data("\r\(label) \(bar) \(done)/\(total)".utf8))
        if done == total { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
