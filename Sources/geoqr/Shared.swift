import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import QRImaging

/// Options every command that signs or checks codes takes.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Data directory holding hunt secrets (default: $GEOQR_DATA, else ~/.local/share/geoqr).", valueName: "DIR"))
    var data: String?

    func directory() throws -> DataDirectory {
        do { return try DataDirectory(path: data) } catch { throw fail(error.description) }
    }
}

/// Prints one line to standard error and returns the exit code to throw: user mistakes end
/// here, never in a stack trace.
func fail(_ message: String, code: Int32 = 1) -> ExitCode {
    FileHandle.standardError.write(Data("geoqr: \(message)\n".utf8))
    return ExitCode(code)
}

func warn(_ message: String) {
    FileHandle.standardError.write(Data("geoqr: \(message)\n".utf8))
}

/// Loads a hunt, printing its warnings; on errors prints the first and exits 1.
func loadHunt(_ argument: String, quietWarnings: Bool = false) throws -> ParsedHunt {
    do {
        let parsed = try HuntLibrary().load(argument)
        if !quietWarnings { parsed.warnings.forEach { warn($0.description) } }
        return parsed
    } catch {
        throw fail(error.description)
    }
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

extension CorrectionLevel: ExpressibleByArgument {}
