import Foundation

/// The built `geoqr` binary, run as a user would: real arguments, real files, real exit codes.
///
/// Each value has a folder of its own in the temporary directory, removed when the value goes
/// away: keep it in a local of the test, and the folder lasts as long as the test does.
final class GeoQRProcess: Sendable {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        let stdoutData: Data
    }

    /// The package root, from this file's path.
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `geoqr` sits beside the test bundle in the build products folder.
    static let binary: URL = {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("geoqr")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        return packageRoot.appendingPathComponent(".build/debug/geoqr")
    }()

    /// The folder that holds both of the others.
    let base: URL
    let dataDirectory: URL
    let workingDirectory: URL

    /// A fresh data directory and working directory with a copy of the repository's caches/.
    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("geoqr-cli-\(UUID().uuidString)")
        dataDirectory = base.appendingPathComponent("data")
        workingDirectory = base.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: workingDirectory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.packageRoot.appendingPathComponent("caches"),
                                         to: workingDirectory.appendingPathComponent("caches"))
    }

    deinit {
        try? FileManager.default.removeItem(at: base)
    }

    func path(_ relative: String) -> String { workingDirectory.appendingPathComponent(relative).path }

    func write(_ text: String, to relative: String) throws {
        try Data(text.utf8).write(to: workingDirectory.appendingPathComponent(relative))
    }

    @discardableResult
    func run(_ arguments: String..., environment extra: [String: String] = [:]) throws -> Result {
        try run(arguments: arguments, environment: extra)
    }

    func run(arguments: [String], environment extra: [String: String] = [:]) throws -> Result {
        try Self.collect(process(arguments, environment: extra))
    }

    /// Runs geoqr with `input` on its standard input.
    func run(arguments: [String], input: Data) throws -> Result {
        try Self.collect(process(arguments), input: input)
    }

    /// geoqr with `arguments`, set to run in the working directory over the data directory, with
    /// GEOQR_CACHES unset so the repository's caches/ copy is the one read.
    func process(_ arguments: [String], environment extra: [String: String] = [:]) -> Process {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.currentDirectoryURL = workingDirectory
        var environment = ProcessInfo.processInfo.environment
        environment["GEOQR_DATA"] = dataDirectory.path
        environment.removeValue(forKey: "GEOQR_CACHES")
        environment.removeValue(forKey: "GEOQR_STORE")   // the data directory's ledger, unless a test names a store
        for (k, v) in extra { environment[k] = v }
        process.environment = environment
        return process
    }

    /// Runs a configured `process` to its end, with `input` (when given) on its standard input,
    /// and returns its status and both outputs.
    static func collect(_ process: Process, input: Data? = nil) throws -> Result {
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        if input != nil { process.standardInput = stdin }
        try process.run()
        // Write the input and read both pipes concurrently so no pipe fills up and blocks the child.
        nonisolated(unsafe) var errData = Data()
        let writer = Thread {
            guard let input else { return }
            stdin.fileHandleForWriting.write(input)
            try? stdin.fileHandleForWriting.close()
        }
        let reader = Thread { errData = err.fileHandleForReading.readDataToEndOfFile() }
        writer.start()
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !reader.isFinished || !writer.isFinished { usleep(1000) }
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self), stdoutData: outData)
    }
}
