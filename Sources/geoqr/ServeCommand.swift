import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import HuntServer
import Ledger
import Play
import QRImaging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a hunt session: players on the same Wi-Fi play in their phone's browser.",
        discussion: """
        Serves the web app and the JSON API (described at /api/openapi.yaml) over the ledger in \
        the data directory. Phones allow the camera and geolocation only over HTTPS (or on \
        localhost), so on a LAN use --tls auto: a self-signed certificate for this machine's \
        names and addresses, kept in the data directory and reused; or --cert/--key for your own. \
        Plain HTTP on --port listens on this machine (127.0.0.1) only: over plain HTTP anyone on \
        the network reads the PINs, sign-in tokens, codes and positions players send. \
        --plain-http-on-lan opens it on every interface all the same (a LAN where that is fine, \
        or a reverse proxy on another machine).

        The data directory is made private at start: the folder and its subfolders 0700, every \
        file geoqr keeps there 0600 (the ledger holds bcrypt hashes of PINs), whatever modes they \
        had; a line says what was tightened. Connections idle for 20 s are closed, a request body \
        must keep coming (4 KiB/s after 20 s), and the soft limit of open files is raised to the \
        hard one (deploy/geoqr.service sets LimitNOFILE); an eighth of it stays free for the \
        ledger, and past the rest the longest-idle connection makes room.

        On start it prints every address players can open, the game master's admin link (keep \
        it private) and a join QR code. Ctrl-C stops it gracefully.

        The web app is built into geoqr, so it runs from any folder; --web DIR serves the pages \
        from a folder instead (assets/web of a checkout), read afresh at each request.

        Example:  geoqr serve --hunt demo --tls auto

        The players' map works without a basemap (caches, trails and the player on a plain \
        background). For one, either --tiles with an online tile server, for hunts where phones \
        have data (--tiles https://tile.openstreetmap.org/{z}/{x}/{y}.png), or --mbtiles with \
        raster tiles of the hunt's area prepared in advance, served from this machine. The map \
        uses Leaflet from Debian's libjs-leaflet (--leaflet DIR for another copy).

        On a public server behind a reverse proxy (deploy/ has a Caddyfile and a systemd \
        unit): --public-url https://hunt.example.org makes the join QR and the admin link use \
        that address (set $GEOQR_PUBLIC_URL instead, and geoqr print puts it in the codes \
        too), and --behind-proxy 127.0.0.1 believes X-Forwarded-For from that proxy alone, so rate \
        limits and PIN lockouts count each player's own address. geoqr then listens on \
        --port, on loopback when the proxy is on this machine. GET /healthz answers the \
        proxy's health checks.

        For benchmarks and load tests on this machine only, --load-test listens on 127.0.0.1 \
        alone, lifts the rate limits (every client is then this machine) and hashes new PINs \
        with bcrypt's cheapest cost, so thousands of test players can join in seconds. It \
        cannot be combined with TLS: a session players reach over the network keeps its limits.
        """
    )

    @Option(help: "Hunt name (caches/NAME.json) or hunt file.")
    var hunt: String

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "Port for plain HTTP, on 127.0.0.1 (every interface with --plain-http-on-lan).")
    var port: Int = 8080

    @Flag(name: .customLong("plain-http-on-lan"), help: ArgumentHelp(
        "Serve plain HTTP on every interface, not just 127.0.0.1: anyone on the network can read the PINs, sign-in tokens, admin token, codes and positions sent over it.",
        discussion: "For a reverse proxy on another machine, or a network where that is acceptable; phones still need HTTPS for the camera and location."))
    var plainHTTPOnLAN = false

    @Option(name: .customLong("tls-port"), help: "Port for HTTPS on every interface.")
    var tlsPort: Int = 8443

    @Option(help: ArgumentHelp("`auto` for a self-signed certificate made and kept in the data directory.", valueName: "auto"))
    var tls: String?

    @Option(help: ArgumentHelp("Your own certificate (PEM), with --key.", valueName: "FILE"))
    var cert: String?

    @Option(help: ArgumentHelp("The private key (PEM) of --cert.", valueName: "FILE"))
    var key: String?

    @Flag(name: .customLong("hide-coordinates"), help: "Show players distance and bearing only, not the caches' coordinates.")
    var hideCoordinates = false

    @Option(help: ArgumentHelp("Serve the web app from this folder, for work on its pages (default: $GEOQR_WEB, else the one built into geoqr).", valueName: "DIR"))
    var web: String?

    @Option(help: ArgumentHelp("Online basemap: an XYZ tile URL with {z}, {x}, {y} (and {s} for a subdomain).", valueName: "URL-TEMPLATE"))
    var tiles: String?

    @Option(name: .customLong("tiles-attribution"),
            help: ArgumentHelp("What the map must credit for its tiles (default for OpenStreetMap's: © OpenStreetMap contributors).", valueName: "TEXT"))
    var tilesAttribution: String?

    @Option(help: ArgumentHelp("Offline basemap: raster tiles from an MBTiles file, served from this machine.", valueName: "FILE"))
    var mbtiles: String?

    @Option(help: ArgumentHelp("Folder holding leaflet.js and leaflet.css (default: $GEOQR_LEAFLET, else \(Leaflet.debianFolder)).", valueName: "DIR"))
    var leaflet: String?

    @Option(name: .customLong("public-url"), help: ArgumentHelp(
        "The address players open, when a reverse proxy serves this one (default: $GEOQR_PUBLIC_URL).", valueName: "URL"),
            transform: { text in
                do { return try PublicURL(checking: text) } catch { throw ValidationError("--public-url \(error)") }
            })
    var publicURLOption: PublicURL?

    @Option(name: .customLong("behind-proxy"), parsing: .singleValue, help: ArgumentHelp(
        "The reverse proxy's IP address, whose X-Forwarded-For is believed (repeat for several).", valueName: "ADDRESS"))
    var behindProxy: [String] = []

    @Flag(name: .customLong("load-test"), help: "Benchmarks and load tests only: loopback only, no rate limits, cheap PIN hashing.")
    var loadTest = false

    func validate() throws {
        if loadTest, tls != nil || cert != nil {
            throw ValidationError("--load-test listens on 127.0.0.1 only; drop --tls/--cert (a LAN session keeps its rate limits)")
        }
        if let tls, tls != "auto" { throw ValidationError("--tls takes only `auto`; for your own certificate use --cert FILE --key FILE") }
        if (cert == nil) != (key == nil) { throw ValidationError("--cert and --key go together") }
        if tls != nil, cert != nil { throw ValidationError("use either --tls auto or --cert/--key, not both") }
        for p in [port, tlsPort] where !(0...65535).contains(p) { throw ValidationError("\(p) is not a port (0…65535)") }
        if tiles != nil, mbtiles != nil { throw ValidationError("use either --tiles URL-TEMPLATE or --mbtiles FILE, not both") }
        if let tiles {
            do { _ = try TileServer(template: tiles, attribution: tilesAttribution) } catch { throw ValidationError("--tiles: \(error)") }
        }
        for address in behindProxy where !TrustedProxies.isAddress(address) {
            throw ValidationError("--behind-proxy \(address): not an IP address (the proxy's, as it connects, e.g. 127.0.0.1)")
        }
        if loadTest, !behindProxy.isEmpty { throw ValidationError("--load-test has no proxy; drop --behind-proxy") }
        if loadTest, plainHTTPOnLAN { throw ValidationError("--load-test listens on 127.0.0.1 only; drop --plain-http-on-lan") }
        if !plainHTTPOnLAN, let remote = behindProxy.first(where: { !Self.isLoopback($0) }) {
            throw ValidationError("--behind-proxy \(remote) is another machine, which reaches geoqr over plain HTTP on the network: add --plain-http-on-lan (anyone on that network can then read PINs and tokens), or run the proxy on this machine")
        }
        _ = try PublicURL.fromEnvironment()
        if tilesAttribution != nil, tiles == nil, mbtiles == nil {
            throw ValidationError("--tiles-attribution goes with --tiles or --mbtiles")
        }
    }

    /// `--public-url`, else `$GEOQR_PUBLIC_URL`.
    var publicURL: PublicURL? { publicURLOption ?? (try? PublicURL.fromEnvironment()) ?? nil }

    /// Plain HTTP listens on every interface only when --plain-http-on-lan says so (a proxy on
    /// another machine needs it); otherwise on loopback.
    var plainHost: String { plainHTTPOnLAN && !loadTest ? "0.0.0.0" : "127.0.0.1" }

    static func isLoopback(_ address: String) -> Bool { address.hasPrefix("127.") || address == "::1" }

    func run() async throws {
        let parsed = try loadHunt(hunt)
        let data = try dataOptions.directory()
        DataDirectory.restrictNewFiles()
        do {
            let tightened = try data.makePrivate()
            if !tightened.isEmpty { warn("\(tightened)") }
        } catch {
            throw CommandFailure("\(error)")
        }
        let descriptors = DescriptorLimit.raise()
        if descriptors.soft < DescriptorLimit.comfortable {
            warn("at most \(descriptors.soft) open files (ulimit -n; hard limit \(descriptors.hard)): about \(ConnectionLimits.forDescriptors(descriptors.soft).maximumConnections) connections at once; raise it with LimitNOFILE= (deploy/geoqr.service) or ulimit -Hn")
        }
        let webApp = try ServeSetup.webApp(web)
        let map = try ServeSetup.map(tiles: tiles, attribution: tilesAttribution, mbtiles: mbtiles, leaflet: leaflet)
        let session: ServedHunt
        let admin: AdminToken
        do {
            let secret = try data.secret(forHunt: parsed.hunt.id)
            admin = try AdminToken.load(directory: data.path, hunt: parsed.hunt.id)
            // The server counts sign-in attempts per network and player first (Guesses), so
            // the ledger's count per player never locks (a rival could otherwise lock a player
            // out from everywhere): it keeps the history.
            let store = try await storeOptions.ledger(data: dataOptions, mustExist: false, pinCost: loadTest ? 4 : 10,
                                                      pinPolicy: .perPlayer)
            // Sessions kept by a server before they lived in the store come along once.
            try await SignIns(store: store, hunt: parsed.hunt.id)
                .importSessionsFile("\(data.path)/server/\(parsed.hunt.id).sessions", at: Date())
            session = ServedHunt(hunt: parsed.hunt, secret: secret, store: store, admin: admin,
                                  options: .init(showCoordinates: !hideCoordinates, webApp: webApp,
                                                 reportPhotoFolder: data.reportPhotoFolder,
                                                 basemap: map.basemap, leaflet: map.leaflet,
                                                 trustedProxies: TrustedProxies(behindProxy)),
                                  limiter: RateLimiter(rules: loadTest ? [:] : RateLimiter.standard))
        } catch {
            throw CommandFailure("\(error)")
        }
        let addresses = NetworkAddresses.current()
        var listeners: [HuntServer.Listener] = []
        var tlsNote: String?
        do {
            if tls == "auto" {
                let made = try SelfSignedCertificate.loadOrMake(directory: data.path, for: addresses)
                tlsNote = "self-signed certificate \(made.certificatePath)\n  SHA-256 \(made.fingerprint)"
                listeners.append(.init(host: "0.0.0.0", port: tlsPort,
                                       tls: try SelfSignedCertificate.serverConfiguration(certificate: made.certificatePath, key: made.keyPath)))
            } else if let cert, let key {
                listeners.append(.init(host: "0.0.0.0", port: tlsPort,
                                       tls: try SelfSignedCertificate.serverConfiguration(certificate: cert, key: key)))
            }
        } catch {
            throw CommandFailure("TLS: \(error)")
        }
        let secure = !listeners.isEmpty
        listeners.insert(.init(host: plainHost, port: port), at: 0)
        if loadTest { warn("load-test mode: 127.0.0.1 only, no rate limits, bcrypt cost 4 for new PINs; not for a real session") }
        if plainHTTPOnLAN {
            warn("--plain-http-on-lan: plain HTTP on port \(port) of every interface: anyone on the network can read the PINs, tokens and positions sent over it")
        } else if !secure, behindProxy.isEmpty, !loadTest, publicURL == nil {
            warn("plain HTTP on 127.0.0.1 only: for phones add --tls auto (or --plain-http-on-lan, which lets anyone on the network read PINs, tokens and positions)")
        }
        let banner = ServeBanner(hunt: parsed.hunt, addresses: addresses, admin: admin, tlsNote: tlsNote,
                                 publicURL: publicURL?.text, behindProxy: !behindProxy.isEmpty)
        try await HuntServer(session: session, listeners: listeners).run { listener, bound in
            banner.listening(secure: listener.tls != nil, wildcard: listener.host == "0.0.0.0", port: bound, tlsOn: secure)
        }
        print("geoqr: stopped; the ledger is closed")
    }
}
