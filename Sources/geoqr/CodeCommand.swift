import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import QRImaging

struct CodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "code",
        abstract: "Write one cache's code (or every cache's) as PNG, SVG or terminal text.",
        discussion: """
        The format comes from the file's extension (.png, .svg) or --format. With -o - the code \
        goes to standard output; --format utf8 draws it in the terminal with block characters, \
        like qrencode -t UTF8. Without CACHE, every cache of the hunt is written into the folder \
        -o names, one file per cache (A1.png, A2.png, …).

        Examples:
          geoqr code demo A1 -o a1.png --size 10
          geoqr code demo A1 -o - --format utf8
          geoqr code demo -o codes/ --format svg
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case png, svg, utf8 }

    @Argument(help: "Hunt name or hunt file.")
    var hunt: String

    @Argument(help: "Cache id; omit to write every cache into the folder given by -o.")
    var cache: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Output file, folder (without CACHE), or - for standard output.", valueName: "FILE"))
    var output: String

    @Option(help: "png, svg or utf8 (default: from the file extension, png for folders).")
    var format: Format?

    @Option(help: "Pixels per module (PNG), or SVG units per module.")
    var size = 3

    @Option(help: "Quiet zone around the symbol, in modules (4 is the standard).")
    var margin = 4

    @OptionGroup var codeOptions: CodeOptions
    @OptionGroup var dataOptions: DataOptions

    @Flag(help: "Print the files written as JSON.")
    var json = false

    func validate() throws {
        guard (1...100).contains(size) else { throw ValidationError("--size \(size): must be 1 to 100 pixels per module") }
        guard (0...40).contains(margin) else { throw ValidationError("--margin \(margin): must be 0 to 40 modules") }
        if cache == nil, output == "-" { throw ValidationError("-o -: give a CACHE to write one code to standard output, or a folder for all") }
        if resolvedFormat == .utf8, output != "-" { throw ValidationError("--format utf8 draws in the terminal; use it with -o -") }
        if cache != nil, output != "-", format == nil, !["png", "svg"].contains((output as NSString).pathExtension.lowercased()) {
            throw ValidationError("-o \(output): name a .png or .svg file, or pass --format")
        }
    }

    var resolvedFormat: Format {
        if let format { return format }
        if cache != nil, let f = Format(rawValue: (output as NSString).pathExtension.lowercased()) { return f }
        return .png
    }

    func run() throws {
        let h = try loadHunt(hunt, quietWarnings: true).hunt
        let secret: HuntSecret
        do { secret = try dataOptions.directory().secret(forHunt: h.id) } catch { throw CommandFailure.from(error) }
        let caches: [Cache]
        if let cache {
            guard let c = h.cache(id: cache) else {
                throw CommandFailure("\(HuntLibrary().path(for: hunt)): no cache \"\(cache)\" (caches: \(h.caches.map(\.id).joined(separator: ", ")))")
            }
            caches = [c]
        } else {
            caches = h.caches
            try makeFolder(output)
        }
        let payloads = caches.map { codeOptions.payload(hunt: h, cache: $0, secret: secret) }
        codeOptions.warnIfLarge(payloads)
        let targets = cache == nil
            ? caches.map { (output as NSString).appendingPathComponent("\($0.id).\(resolvedFormat.rawValue)") }
            : [output]
        try writeAll(payloads: payloads, to: targets)
        if json { try printJSON(["files": targets]) }
    }

    /// Encodes and writes in parallel: each code is independent, and both cores help with a
    /// folder of a thousand.
    private func writeAll(payloads: [String], to targets: [String]) throws {
        let tally = BatchTally()
        let progress = Progress(label: "codes", total: targets.count)
        
        DispatchQueue.concurrentPerform(iterations: payloads.count) { i in
            do {
                try FileAccess.write(try render(payloads[i]), to: targets[i])
            } catch {
                tally.record("\(error)")
            }
            if targets.count > 50 { progress.update(tally.increment()) }
        }
        if let first = tally.first { throw CommandFailure(first) }
    }

    private func render(_ payload: String) throws -> Data {
        let symbol = try QRSymbol(encoding: payload, level: codeOptions.level)
        switch resolvedFormat {
        case .png: return try PNGCodec.encode(symbol.image(moduleSize: size, margin: margin), bilevel: true)
        case .svg: return Data(symbol.svg(moduleSize: size, margin: margin).utf8)
        case .utf8: return Data(symbol.terminalText(margin: margin).utf8)
        }
    }

    private func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("\(path): cannot make folder: \((error as NSError).localizedFailureReason ?? error.localizedDescription)")
        }
    }
}

/// Parallel work's first failure and count of items done, behind a lock.
final class BatchTally: @unchecked Sendable {
    private let lock = NSLock()
    private var message: String?
    private var count = 0

    func record(_ m: String) { lock.withLock { if message == nil { message = m } } }
    var first: String? { lock.withLock { message } }
    func increment() -> Int { lock.withLock { count += 1; return count } }
}
