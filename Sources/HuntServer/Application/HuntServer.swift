import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle

/// Runs a hunt session's router on one or more listeners (plain HTTP on loopback, HTTPS on
/// every interface) until SIGINT or SIGTERM, then shuts down gracefully: listeners stop
/// accepting, event streams end, requests in flight finish. Every listener keeps the same
/// ``ConnectionLimits`` (idle timeout, slow bodies, a cap on connections that leaves
/// descriptors for the ledger).
///
/// ```swift
/// try await HuntServer(session: session, listeners: [
///     .init(host: "127.0.0.1", port: 8080),
///     .init(host: "0.0.0.0", port: 8443, tls: try SelfSignedCertificate.serverConfiguration(…)),
/// ]).run()
/// ```
public struct HuntServer: Sendable {
    /// One address to listen on, with TLS or without.
    public struct Listener: Sendable {
        public var host: String
        public var port: Int
        public var tls: TLSConfiguration?
        public init(host: String, port: Int, tls: TLSConfiguration? = nil) {
            self.host = host
            self.port = port
            self.tls = tls
        }
    }

    public let session: ServedHunt
    public let listeners: [Listener]
    /// Idle timeouts, slow bodies and how many connections, shared by every listener.
    public var limits: ConnectionLimits
    public var logger = Logger(label: "geoqr.serve")

    public init(session: ServedHunt, listeners: [Listener], limits: ConnectionLimits = .current) {
        self.session = session
        self.listeners = listeners
        self.limits = limits
    }

    /// Serves until a signal; `onRunning` hears each listener's bound port. A port another
    /// program holds is a ``HuntServerError/portInUse(_:)`` naming it.
    public func run(onRunning: @escaping @Sendable (Listener, Int) -> Void = { _, _ in }) async throws {
        let bound = BoundListeners()
        do {
            try await serve { listener, port in
                bound.add(listener.port)
                onRunning(listener, port)
            }
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw HuntServerError.portInUse(listeners.filter { !bound.contains($0.port) }.map(\.port))
        }
    }

    private func serve(onRunning: @escaping @Sendable (Listener, Int) -> Void) async throws {
        let responder = HuntRouter.build(session: session).buildResponder()
        let connections = OpenConnections(maximum: limits.maximumConnections)
        let limits = self.limits
        // Hummingbird's idle timeout closes a connection that sends nothing (or never finishes
        // a request's head); ConnectionWatch does the rest of ConnectionLimits.
        let http1 = HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionWatch(connections: connections, limits: limits)],
            idleTimeout: TimeAmount(limits.idleTimeout))
        var services: [any Service] = []
        for listener in listeners {
            let server: HTTPServerBuilder = try listener.tls.map { try .tls(.http1(configuration: http1), tlsConfiguration: $0) }
                ?? .http1(configuration: http1)
            services.append(Application(
                responder: responder, server: server,
                configuration: .init(address: .hostname(listener.host, port: listener.port), serverName: nil),
                onServerRunning: { channel in onRunning(listener, channel.localAddress?.port ?? listener.port) },
                logger: logger))
        }
        services.append(LiveShutdown(live: session.live))
        services.append(PositionRetentionWatch(session: session))
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint],
                                                      logger: logger))
        try await group.run()
    }
}

/// Why the server could not start, in words for the game master.
public enum HuntServerError: Error, CustomStringConvertible {
    /// Another program (often another `geoqr serve`) listens on these ports already.
    case portInUse([Int])

    public var description: String {
        switch self {
        case .portInUse(let ports):
            let list = ports.map(String.init).joined(separator: " and ")
            return (ports.count == 1 ? "port \(list) is" : "ports \(list) are") + " already in use (another geoqr serve still running?): stop it, or choose others with --port and --tls-port"
        }
    }
}

/// The ports whose listeners came up, as they come up (from the servers' event loops).
private final class BoundListeners: @unchecked Sendable {   // `ports` only under `lock`
    private let lock = NSLock()
    private var ports: Set<Int> = []
    func add(_ port: Int) { lock.withLock { _ = ports.insert(port) } }
    func contains(_ port: Int) -> Bool { lock.withLock { ports.contains(port) } }
}

/// Ends every event stream when shutdown begins, so open streams do not hold it up.
struct LiveShutdown: Service {
    let live: LiveEvents
    func run() async throws {
        try? await gracefulShutdown()
        await live.closeAll()
    }
}
