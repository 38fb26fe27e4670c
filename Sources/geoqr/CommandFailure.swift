import ArgumentParser
import Foundation

/// Why a command could not do what it was asked: thrown from `run()` and printed once, as one
/// line on standard error (`geoqr: …`), by ``GeoQRCommand/main()``, which exits with ``code``.
/// User mistakes end here, never in a stack trace.
///
/// ```swift
/// guard let hash = read(path) else { throw CommandFailure("\(path): cannot read the file") }
/// ```
struct CommandFailure: Error, CustomStringConvertible {
    let message: String
    let code: Int32

    init(_ message: String, code: Int32 = 1) {
        self.message = message
        self.code = code
    }

    var description: String { message }

    /// `error` as a command failure: itself when it is one, else its description (the
    /// domain's errors describe themselves in one line); ArgumentParser's own exits pass through.
    static func from(_ error: any Error) -> any Error {
        if error is CommandFailure || error is ExitCode || error is CleanExit { return error }
        return CommandFailure("\(error)")
    }

    /// Runs `body`, turning what it throws into a command failure (``from(_:)``).
    static func wrapping<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw from(error) }
    }

    /// Prints the line and exits with the code.
    func exit() -> Never {
        FileHandle.standardError.write(Data("geoqr: \(message)\n".utf8))
        Foundation.exit(code)
    }
}
