import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOSSL
import ServiceLifecycle

/// Runs a hunt session's router on one or more listeners (plain HTTP on loopback, HTTPS on
/// every interface) until SIGINT or SIGTERM, then shuts down gracefully: listeners stop
/// accepting, event streams end, requests in flight finish.
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

    public let session: HuntSession
    public let listeners: [Listener]
    public var logger = Logger(label: "geoqr.serve")

    public init(session: HuntSession, listeners: [Listener]) {
        self.session = session
        self.listeners = listeners
    }

    /// Serves until a signal; `onRunning` hears each listener's bound port.
    public func run(onRunning: @escaping @Sendable (Listener, Int) -> Void = { _, _ in }) async throws {
        let responder = HuntRouter.build(session: session).buildResponder()
        var services: [any Service] = []
        for listener in listeners {
            let server: HTTPServerBuilder = try listener.tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1()
            services.append(Application(
                responder: responder, server: server,
                configuration: .init(address: .hostname(listener.host, port: listener.port), serverName: nil),
                onServerRunning: { channel in onRunning(listener, channel.localAddress?.port ?? listener.port) },
                logger: logger))
        }
        services.append(LiveShutdown(live: session.live))
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigterm, .sigint],
                                                      logger: logger))
        try await group.run()
    }
}

/// Ends every event stream when shutdown begins, so open streams do not hold it up.
struct LiveShutdown: Service {
    let live: LiveEvents
    func run() async throws {
        try? await gracefulShutdown()
        await live.closeAll()
    }
}
