import Foundation
import GeoQR
import HTTPTypes
import Hummingbird
import HuntServer
import Ledger
import Logging
import NIOCore
import QRImaging

/// A hunt session on a temporary ledger, with the test hunt TEST: A1 and B1 in Aveiro, 40 m
/// radius. Rate limits are off unless a test sets its own. The ledger's folder is removed when the
/// harness goes away, at the end of the test that holds it.
final class Harness: Sendable {
    static let a1 = Coordinate(latitude: 40.6303, longitude: -8.6575)
    static let b1 = Coordinate(latitude: 40.6320, longitude: -8.6590)
    static let adminToken = "0123456789abcdef0123456789abcdef"
    static let hunt = Hunt(id: "TEST", name: "Test hunt", defaultRadius: 40, trails: [
        Trail(id: "T", name: "Lagoon", cacheIDs: ["A1", "B1"]),
    ], caches: [
        Cache(id: "A1", name: "Rectorate steps", coordinate: a1, message: "Welcome to A1", hint: "steps"),
        Cache(id: "B1", name: "Library", coordinate: b1, message: "Books are B1"),
    ])
    /// The checkout's assets/web, for tests of `geoqr serve --web DIR` (the harness serves the
    /// web app built into HuntServer, as geoqr does).
    static let webFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../assets/web").standardized.path

    let session: ServedHunt
    let secret = HuntSecret.random()
    let directory: String

    /// - parameter options: changes to the session's options (a basemap, Leaflet).
    init(limits: [RateLimiter.Kind: RateLimiter.Rule] = [:], showCoordinates: Bool = true,
         options change: (inout ServedHunt.Options) -> Void = { _ in }) throws {
        directory = NSTemporaryDirectory() + "geoqr-server-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // As `geoqr serve` has it: wrong PINs counted per address first, the ledger's count per player slower.
        let store = try SQLiteGameStore(directory: directory, configuration: .init(pinCost: 4, pinPolicy: .perPlayer, synchronousFull: false))
        var options = ServedHunt.Options(showCoordinates: showCoordinates,
                                          leaderboardInterval: .milliseconds(100),
                                          reportPhotoFolder: directory + "/report-photos")
        change(&options)
        session = ServedHunt(hunt: Self.hunt, secret: secret, store: store,
                              admin: AdminToken(value: Self.adminToken), options: options,
                              limiter: RateLimiter(rules: limits))
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The hunt's app, which `app.test(.live)` serves on a loopback port. Its log says only what
    /// went wrong (not that each test's server started).
    var app: some ApplicationProtocol {
        var logger = Logger(label: "geoqr-test")
        logger.logLevel = .warning
        return Application(router: HuntRouter.build(session: session), logger: logger)
    }

    func code(_ cache: String, secret: HuntSecret? = nil) -> String {
        CacheCode.payload(hunt: "TEST", cache: cache, secret: secret ?? self.secret)
    }

    /// A PNG of a cache's code, as a camera frame would carry it.
    func framePNG(_ cache: String) throws -> Data {
        try PNGCodec.encode(try QRSymbol(encoding: code(cache)).image(moduleSize: 6, margin: 4))
    }

    /// A point `metres` north of `c` (near enough for tests: 1° of latitude ≈ 111 km).
    static func north(of c: Coordinate, metres: Double) -> Coordinate {
        Coordinate(latitude: c.latitude + metres / 111_000, longitude: c.longitude)
    }
}

/// A JSON reply, read loosely.
struct Reply {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let json: [String: Any]
    let text: String

    subscript(key: String) -> Any? { json[key] }
    var error: String? { json["error"] as? String }
}

extension TestClientProtocol {
    /// Sends `body` (JSON when a dictionary, raw when Data) with a bearer token.
    func call(_ method: HTTPRequest.Method, _ uri: String, token: String? = nil, json body: [String: Any]? = nil,
              raw: Data? = nil, contentType: String? = nil, headers extra: HTTPFields = [:]) async throws -> Reply {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        var buffer: ByteBuffer?
        if let body {
            buffer = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: body))
            headers[.contentType] = "application/json"
        } else if let raw {
            buffer = ByteBuffer(bytes: raw)
            headers[.contentType] = contentType ?? "application/octet-stream"
        }
        if let buffer { headers[.contentLength] = String(buffer.readableBytes) }
        return try await execute(uri: uri, method: method, headers: headers, body: buffer) { response in
            let text = String(buffer: response.body)
            let json = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
            return Reply(status: response.status, headers: response.headers, json: json, text: text)
        }
    }

    /// Joins and returns (token, player id).
    func join(_ name: String, pin: String = "4321", team: String? = nil) async throws -> (token: String, id: String) {
        var body = ["name": name, "pin": pin]
        if let team { body["team"] = team }
        let reply = try await call(.post, "/api/join", json: body)
        guard reply.status == .created, let token = reply["token"] as? String,
              let player = reply["player"] as? [String: Any], let id = player["id"] as? String
        else { throw TestFailure("join \(name): \(reply.status) \(reply.text)") }
        return (token, id)
    }

    /// Claims `cache` by link from `at`.
    func claim(_ code: String, token: String, at: Coordinate?, accuracy: Double? = nil) async throws -> Reply {
        var body: [String: Any] = ["code": code]
        if let at { body["latitude"] = at.latitude; body["longitude"] = at.longitude }
        if let accuracy { body["accuracy"] = accuracy }
        return try await call(.post, "/api/claims", token: token, json: body)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
