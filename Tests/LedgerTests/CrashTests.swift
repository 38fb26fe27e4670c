import Foundation
@testable import Ledger
import Testing

@Suite("Crash safety")
struct CrashTests {
    /// The `geoqr` built beside this test bundle.
    static var geoqr: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("geoqr")
    }

    @Test func everyAcknowledgedFindSurvivesSIGKILL() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.geoqr.path),
                     "build geoqr first (swift build): \(Self.geoqr.path)")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-crash-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let writer = Process()
        writer.executableURL = Self.geoqr
        writer.arguments = ["ledger", "load", "--data", data, "--tasks", "8"]
        let pipe = Pipe()
        writer.standardOutput = pipe
        try writer.run()

        // Read acknowledgements until enough have arrived, then kill the writer mid-load.
        var acknowledged: [String] = []
        var buffer = Data()
        let handle = pipe.fileHandleForReading
        while acknowledged.count < 1500 {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                if line.hasPrefix("ack ") { acknowledged.append(String(line.dropFirst(4))) }
            }
        }
        kill(writer.processIdentifier, SIGKILL)
        writer.waitUntilExit()
        #expect(writer.terminationReason == .uncaughtSignal)
        #expect(acknowledged.count >= 1500)

        let store = try SQLiteGameStore(directory: data)
        let report = try await store.verify()
        #expect(report.isIntact, "\(report.problem ?? "")")
        let stored = Set(try await store.finds(hunt: "BENCH", player: nil).map(\.id))
        let missing = acknowledged.filter { !stored.contains($0) }
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.prefix(5))")
        #expect(stored.count >= acknowledged.count)
    }
}
