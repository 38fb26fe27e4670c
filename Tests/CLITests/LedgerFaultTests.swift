import Foundation
import Testing

/// A ledger file that is locked, read-only, full or corrupt, met from the command line: one
/// line on standard error naming the file, exit status 1, no stack trace, nothing half-written.
@Suite struct LedgerFaultTests {
    func ledgerPath(_ geoqr: GeoQRProcess) -> String { geoqr.dataDirectory.appendingPathComponent("ledger.sqlite").path }

    /// One line, prefixed, naming the file, saying `what`.
    func expectOneLine(_ r: GeoQRProcess.Result, naming path: String, saying what: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.hasPrefix("geoqr: "), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(path), "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(what), "\(r.stderr)", sourceLocation: sourceLocation)
    }

    func events(_ geoqr: GeoQRProcess) throws -> String { try geoqr.run("ledger", "export").stdout }

    @Test func aLedgerLockedByAnotherProcess() throws {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321").status == 0)
        let before = try events(geoqr)
        // The sqlite3 shell takes the write lock and holds it past geoqr's busy timeout (5 s).
        let held = geoqr.workingDirectory.appendingPathComponent("held").path
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [ledgerPath(geoqr)]
        let input = Pipe()
        shell.standardInput = input
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        input.fileHandleForWriting.write(Data("BEGIN IMMEDIATE;\n.system touch \(held)\n".utf8))
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: held) { usleep(10_000) }
        #expect(FileManager.default.fileExists(atPath: held), "sqlite3 did not take the lock")

        let r = try geoqr.run("player", "add", "Bob", "--hunt", "demo", "--pin", "9999")
        input.fileHandleForWriting.write(Data("ROLLBACK;\n.quit\n".utf8))
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
        expectOneLine(r, naming: ledgerPath(geoqr), saying: "locked by another process")
        #expect(try events(geoqr) == before)
        #expect(try geoqr.run("player", "add", "Bob", "--hunt", "demo", "--pin", "9999").status == 0)
        #expect(try geoqr.run("ledger", "verify").status == 0)
    }

    @Test func aReadOnlyLedgerFileAndFolder() throws {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321").status == 0)
        let before = try events(geoqr)
        let ledger = ledgerPath(geoqr)
        chmod(ledger, 0o444)
        chmod(geoqr.dataDirectory.path, 0o555)
        defer { chmod(geoqr.dataDirectory.path, 0o700); chmod(ledger, 0o600) }
        // Root writes through permissions, so as root the command runs as nobody.
        let prefix = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        let r = try run(prefix + [GeoQRProcess.binary.path, "player", "add", "Bob", "--hunt", "demo", "--pin", "9999"], geoqr)
        expectOneLine(r, naming: ledger, saying: "cannot be written")
        chmod(geoqr.dataDirectory.path, 0o700)
        #expect(try events(geoqr) == before)
    }

    @Test(.enabled(if: ScratchMount.available, "needs the right to mount a tmpfs"))
    func aLedgerOnAReadOnlyFilesystem() throws {
        let geoqr = try GeoQRProcess()
        let disk = try ScratchMount(bytes: 4 << 20)
        let env = ["GEOQR_DATA": disk.path + "/data"]
        #expect(try geoqr.run(arguments: ["player", "add", "Ada", "--hunt", "demo", "--pin", "4321"], environment: env).status == 0)
        let before = try geoqr.run(arguments: ["ledger", "export"], environment: env).stdout
        #expect(disk.remount(readOnly: true))
        let r = try geoqr.run(arguments: ["player", "add", "Bob", "--hunt", "demo", "--pin", "9999"], environment: env)
        expectOneLine(r, naming: disk.path + "/data/ledger.sqlite", saying: "cannot be written")
        #expect(disk.remount(readOnly: false))
        #expect(try geoqr.run(arguments: ["ledger", "export"], environment: env).stdout == before)
    }

    @Test(.enabled(if: ScratchMount.available, "needs the right to mount a tmpfs"))
    func aFullDisk() throws {
        let geoqr = try GeoQRProcess()
        let disk = try ScratchMount(bytes: 2 << 20)
        let env = ["GEOQR_DATA": disk.path + "/data"]
        #expect(try geoqr.run(arguments: ["player", "add", "Ada", "--hunt", "demo", "--pin", "4321"], environment: env).status == 0)
        // Leave room for SQLite's shared-memory index and a few pages more, no more.
        let filler = disk.path + "/filler"
        let room = max(disk.freeBytes - 48 * 1024, 0)
        FileManager.default.createFile(atPath: filler, contents: Data(count: room))
        var joined = 1
        var failure: GeoQRProcess.Result?
        for i in 0..<60 {
            let r = try geoqr.run(arguments: ["player", "add", "Player \(i)", "--hunt", "demo", "--pin", "4321"], environment: env)
            if r.status != 0 { failure = r; break }
            joined += 1
        }
        let full = try #require(failure, "the disk never filled up")
        expectOneLine(full, naming: disk.path + "/data/ledger.sqlite", saying: "disk is full")
        try FileManager.default.removeItem(atPath: filler)
        let verify = try geoqr.run(arguments: ["ledger", "verify"], environment: env)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let players = try geoqr.run(arguments: ["leaderboard", "--hunt", "demo", "--json"], environment: env)
        let list = try JSONSerialization.jsonObject(with: players.stdoutData) as? [Any]
        #expect(list?.count == joined, "every acknowledged join, and only those")
    }

    @Test func garbageWhereTheLedgerShouldBe() throws {
        let geoqr = try GeoQRProcess()
        try FileManager.default.createDirectory(at: geoqr.dataDirectory, withIntermediateDirectories: true)
        let ledger = ledgerPath(geoqr)
        try Data(String(repeating: "not a ledger at all\n", count: 400).utf8).write(to: URL(fileURLWithPath: ledger))
        for command in [["leaderboard", "--hunt", "demo"], ["player", "add", "Ada", "--hunt", "demo", "--pin", "4321"],
                        ["ledger", "verify"]] {
            expectOneLine(try geoqr.run(arguments: command), naming: ledger, saying: "damaged")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: ledger)).prefix(11) == Data("not a ledge".utf8), "left as it was")
    }

    @Test func aTruncatedLedger() throws {
        let geoqr = try GeoQRProcess()
        for i in 0..<30 {
            #expect(try geoqr.run("player", "add", "Player \(i)", "--hunt", "demo", "--pin", "4321").status == 0)
        }
        let ledger = ledgerPath(geoqr)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: ledger)[.size] as? Int)
        #expect(truncate(ledger, off_t(size / 2)) == 0)
        for command in [["ledger", "verify"], ["leaderboard", "--hunt", "demo"]] {
            let r = try geoqr.run(arguments: command)
            #expect(r.status == 1, "\(command): \(r.stdout)\(r.stderr)")
            let lines = (r.stdout + r.stderr).split(separator: "\n")
            #expect(lines.count == 1, "\(command): \(r.stdout)\(r.stderr)")
            #expect(lines.first?.contains("damaged") == true, "\(command): \(r.stdout)\(r.stderr)")
        }
    }

    /// Runs a command line as it is, with this test's data directory.
    func run(_ arguments: [String], _ geoqr: GeoQRProcess) throws -> GeoQRProcess.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: arguments[0])
        p.arguments = Array(arguments.dropFirst())
        p.currentDirectoryURL = geoqr.workingDirectory
        var env = ProcessInfo.processInfo.environment
        env["GEOQR_DATA"] = geoqr.dataDirectory.path
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return .init(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
                     stderr: String(decoding: e, as: UTF8.self), stdoutData: o)
    }
}
