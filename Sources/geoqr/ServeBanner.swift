import Foundation
import GeoQR
import HuntServer
import QRImaging

/// What `geoqr serve` serves besides the ledger: the web app, the basemap, Leaflet.
enum ServeSetup {
    /// The folder `--web` names, else the one `$GEOQR_WEB` names (for work on the pages), else
    /// the web app built into geoqr.
    static func webApp(_ option: String?) throws -> WebApp {
        let environment = ProcessInfo.processInfo.environment["GEOQR_WEB"].flatMap { $0.isEmpty ? nil : $0 }
        guard let (source, folder) = option.map({ ("--web", $0) }) ?? environment.map({ ("$GEOQR_WEB", $0) }) else {
            return .builtIn
        }
        do {
            return try WebApp(folder: folder)
        } catch {
            throw CommandFailure("\(source): \(error); without it geoqr serves the web app built into it")
        }
    }

    /// The basemap and Leaflet. A bad MBTiles file stops the start with one line; missing
    /// Leaflet only costs the map, so it is one line of warning.
    static func map(tiles: String?, attribution: String?, mbtiles: String?, leaflet: String?) throws -> (basemap: Basemap, leaflet: Leaflet?) {
        var basemap = Basemap.none
        if let tiles {
            basemap = .online(try TileServer(template: tiles, attribution: attribution))   // checked in validate()
        } else if let mbtiles {
            do { basemap = .mbtiles(try MBTiles(path: mbtiles), attribution: attribution) } catch {
                throw CommandFailure("--mbtiles \(error)")
            }
        }
        let folder = leaflet ?? ProcessInfo.processInfo.environment["GEOQR_LEAFLET"] ?? Leaflet.debianFolder
        do {
            return (basemap, try Leaflet(folder: folder))
        } catch {
            warn("no map: \(error)")
            return (basemap, nil)
        }
    }
}

/// What `geoqr serve` prints once a listener is up: the addresses, the admin link, a join QR.
struct ServeBanner: Sendable {
    let hunt: Hunt
    let addresses: NetworkAddresses
    let admin: AdminToken
    let tlsNote: String?
    /// The address players open (`--public-url`): the links and the join QR use it alone.
    var publicURL: String? = nil
    var behindProxy = false

    func listening(secure: Bool, wildcard: Bool, port: Int, tlsOn: Bool) {
        if let publicURL {
            listening(at: publicURL + "/", port: port, secure: secure)
            return
        }
        let scheme = secure ? "https" : "http"
        if !secure, tlsOn {
            FileHandle.standardOutput.write(Data("geoqr: plain http://localhost:\(port)/ for this machine only\n".utf8))
            return
        }
        var urls = ["\(scheme)://localhost:\(port)/"]
        if wildcard { urls += addresses.lanIPv4.map { "\(scheme)://\($0):\(port)/" } }
        var out = "geoqr: serving \(hunt.name) (\(hunt.id)) on:\n" + urls.map { "  \($0)\n" }.joined()
        if !secure, wildcard {
            out += "  (phones need HTTPS for the camera and location: add --tls auto)\n"
        }
        // The admin link and the QR go with the address phones will use.
        if secure || !tlsOn {
            let base = urls.count > 1 ? urls[1] : urls[0]
            if let tlsNote { out += "  \(tlsNote)\n" }
            out += "game master (keep private): \(base)admin.html#token=\(admin.value)\n"
            out += "big screen (standings only): \(base)board.html#board=\(admin.boardToken)\n"
            out += "players join at \(base) :\n"
            if let symbol = try? QRSymbol(encoding: base.uppercased(), level: .M) {
                out += symbol.terminalText(margin: 2)
            }
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }

    /// With a public URL every listener is only a way in for the proxy; the links are printed
    /// once, with the first.
    private func listening(at base: String, port: Int, secure: Bool) {
        var out = "geoqr: \(secure ? "https" : "http")://localhost:\(port)/ \(behindProxy ? "for the reverse proxy" : "on this machine")\n"
        if !printed.swap() {
            out += "geoqr: serving \(hunt.name) (\(hunt.id)) at \(base)\n"
            out += "game master (keep private): \(base)admin.html#token=\(admin.value)\n"
            out += "big screen (standings only): \(base)board.html#board=\(admin.boardToken)\n"
            out += "players join at \(base) :\n"
            if let symbol = try? QRSymbol(encoding: base.uppercased(), level: .M) { out += symbol.terminalText(margin: 2) }
        }
        FileHandle.standardOutput.write(Data(out.utf8))
    }

    private let printed = Once()
}

/// True once, then false: the first caller of ``swap()`` hears false.
private final class Once: @unchecked Sendable {   // `done` only under `lock`
    private let lock = NSLock()
    private var done = false
    func swap() -> Bool { lock.withLock { defer { done = true }; return done } }
}
