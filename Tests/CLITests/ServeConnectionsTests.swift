import Foundation
import Testing

/// Issue 24 §8: where `geoqr serve` listens over plain HTTP, and a data folder made private at
/// start whatever modes it had.
@Suite struct ServeConnectionsTests {
    /// Plain HTTP on 127.0.0.1 unless --plain-http-on-lan; TLS on every interface; a proxy on
    /// another machine needs the option, said in one line.
    @Test func plainHTTPListensBeyondLoopbackOnlyWithTheOption() throws {
        let geoqr = try GeoQRProcess()
        let plain = try ServeMapOptionsTests.runBriefly(geoqr, ["serve", "--hunt", "demo", "--port", "0"], until: "players join at")
        let both = plain.stdout + plain.stderr
        #expect(both.contains("listening on 127.0.0.1:") && !both.contains("listening on 0.0.0.0:"), "\(both)")
        #expect(plain.stderr.contains("plain HTTP on 127.0.0.1 only: for phones add --tls auto (or --plain-http-on-lan"), "\(plain.stderr)")

        let lan = try ServeMapOptionsTests.runBriefly(geoqr, ["serve", "--hunt", "demo", "--port", "0", "--plain-http-on-lan"],
                                                      until: "players join at")
        #expect((lan.stdout + lan.stderr).contains("listening on 0.0.0.0:"), "\(lan.stdout)")
        #expect(lan.stderr.contains("anyone on the network can read the PINs, tokens and positions"), "\(lan.stderr)")

        let tls = try ServeMapOptionsTests.runBriefly(geoqr, ["serve", "--hunt", "demo", "--port", "0", "--tls-port", "0", "--tls", "auto"],
                                                      until: "players join at")
        let tlsOut = tls.stdout + tls.stderr
        #expect(tlsOut.contains("listening on 127.0.0.1:") && tlsOut.contains("listening on 0.0.0.0:"), "\(tlsOut)")
        #expect(tlsOut.components(separatedBy: "listening on 0.0.0.0:").count == 2, "only TLS on every interface")

        let remoteProxy = try ServeMapOptionsTests.runBriefly(geoqr, ["serve", "--hunt", "demo", "--behind-proxy", "10.0.0.5"])
        #expect(remoteProxy.status != 0 && remoteProxy.stderr.contains("add --plain-http-on-lan"), "\(remoteProxy.stderr)")
        #expect(try geoqr.run("serve", "--help").stdout.contains("anyone on the network can read the PINs"))
    }

    /// A data folder left 0755 with 0644 files (a `cp -r`, an older geoqr, a 0022 umask) is made
    /// 0700 with 0600 files at start, with a line saying so; what geoqr makes afterwards is 0600.
    @Test func theDataFolderIsMadePrivateWhateverWasThereBefore() throws {
        let geoqr = try GeoQRProcess()
        let data = geoqr.dataDirectory.path
        let first = try ServeMapOptionsTests.runBriefly(geoqr, ["serve", "--hunt", "demo", "--port", "0"], until: "players join at")
        #expect(!first.stderr.contains("readable by other users"), "a fresh folder is private from the start: \(first.stderr)")
        try Self.entries(data).forEach { path, isFolder in
            #expect(chmod(path, isFolder ? 0o755 : 0o644) == 0)
        }
        let again = try ServeMapOptionsTests.runBriefly(geoqr, ["serve", "--hunt", "demo", "--port", "0"], until: "players join at")
        #expect(again.stderr.contains("geoqr: data folder \(data) was readable by other users:"), "\(again.stderr)")
        #expect(again.stderr.contains("made 0700 (\(data) was 0755)") && again.stderr.contains("made 0600"), "\(again.stderr)")
        let entries = try Self.entries(data)
        #expect(entries.contains { $0.path.hasSuffix("/ledger.sqlite") } && entries.contains { $0.path.hasSuffix(".key") })
        for (path, isFolder) in entries {
            var info = stat()
            #expect(lstat(path, &info) == 0)
            #expect(info.st_mode & 0o777 == (isFolder ? 0o700 : 0o600), "\(path) is \(String(info.st_mode & 0o777, radix: 8))")
        }
    }

    /// The folder itself and everything below it, with whether each is a folder.
    static func entries(_ root: String) throws -> [(path: String, isFolder: Bool)] {
        var found: [(String, Bool)] = [(root, true)]
        for relative in try FileManager.default.subpathsOfDirectory(atPath: root) {
            var isFolder: ObjCBool = false
            let path = root + "/" + relative
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
            found.append((path, isFolder.boolValue))
        }
        return found
    }
}
