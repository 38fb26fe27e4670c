import ArgumentParser
import Foundation

/// Commands used from scripts follow the POSIX convention that a usage error exits 2, where
/// ArgumentParser exits 64 (EX_USAGE).
enum UsageStatus {
    static let posixCommands: Set<String> = ["decode", "scan", "watch"]

    /// Exits 2 with ArgumentParser's message when `error` is a usage error of such a command;
    /// returns otherwise.
    static func exitIfUsageError(_ error: Error, arguments: [String] = CommandLine.arguments) {
        guard let name = arguments.dropFirst().first, posixCommands.contains(name),
              GeoQRCommand.exitCode(for: error) == .validationFailure else { return }
        FileHandle.standardError.write(Data((GeoQRCommand.fullMessage(for: error) + "\n").utf8))
        exit(2)
    }
}
