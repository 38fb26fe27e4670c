import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix
import NIOSSL
import ServiceLifecycle

// The suites' way to the server: the app runs as a real server on a loopback port, and requests
// reach it over real sockets through the small HTTP/1.1 client below, as a phone's would. It takes
// the place of HummingbirdTesting (whose names it keeps, so a test reads as before), which would
// compile AsyncHTTPClient and swift-nio-http2 into every test build for the few calls used here.

/// How a test reaches the app. There is one way: a real server on a loopback port.
enum TestingSetup: Sendable {
    case live
}

/// A response as a test reads it: the head and the whole body.
struct TestResponse: Sendable {
    let head: HTTPResponse
    let body: ByteBuffer
    let trailerHeaders: HTTPFields?

    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
}

/// What a test's closure is given: a client of the running app.
protocol TestClientProtocol: Sendable {
    /// The app's port.
    var port: Int? { get }
    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields,
                        body: ByteBuffer?) async throws -> TestResponse
}

extension TestClientProtocol {
    /// Sends one request and hands its response to `testCallback`.
    @discardableResult
    func execute<Return>(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
                         testCallback: (TestResponse) async throws -> Return = { $0 }) async throws -> Return {
        try await testCallback(try await executeRequest(uri: uri, method: method, headers: headers, body: body))
    }
}

extension ApplicationProtocol {
    /// Runs the app on a loopback port for the length of `test`, then shuts it down gracefully.
    func test<Value>(_ setup: TestingSetup, _ test: @Sendable (LoopbackClient) async throws -> Value) async throws -> Value {
        let app = LoopbackApplication(base: self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [],
                                                              logger: app.logger))
            group.addTask {
                defer { app.ports.finish() }
                try await services.run()
            }
            guard let port = await app.portStream.first(where: { _ in true }) else {
                try await group.waitForAll()
                throw TestHTTPError.serverDidNotStart
            }
            let client = TestClient(host: "127.0.0.1", port: port, configuration: .init())
            do {
                let value = try await test(LoopbackClient(client: client))
                await client.shutdown()
                await services.triggerGracefulShutdown()
                return value
            } catch {
                await client.shutdown()
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }
}

/// The client a test's closure is given, on the app's loopback port.
struct LoopbackClient: TestClientProtocol {
    let client: TestClient

    var port: Int? { client.port }

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields,
                        body: ByteBuffer?) async throws -> TestResponse {
        try await client.execute(uri: uri, method: method, headers: headers, body: body)
    }
}

/// An app as the tests run it: on 127.0.0.1 at a port the system picks, which it tells once bound.
private struct LoopbackApplication<Base: ApplicationProtocol>: ApplicationProtocol {
    typealias Responder = Base.Responder

    let base: Base
    let portStream: AsyncStream<Int>
    let ports: AsyncStream<Int>.Continuation

    init(base: Base) {
        self.base = base
        (portStream, ports) = AsyncStream.makeStream(of: Int.self)
    }

    var responder: Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration.with(address: .hostname("127.0.0.1", port: 0)) }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        if let port = channel.localAddress?.port { ports.yield(port) }
    }
}

enum TestHTTPError: Error, CustomStringConvertible {
    case serverDidNotStart
    case closed
    case timedOut(Duration)

    var description: String {
        switch self {
        case .serverDidNotStart: "the app's server ended before it was listening"
        case .closed: "the server closed the connection before the response ended"
        case .timedOut(let limit): "no response within \(limit)"
        }
    }
}

/// A small HTTP/1.1 client over real sockets, plain or TLS. Each request takes an idle keep-alive
/// connection or opens one, so requests from several tasks at once go side by side, as a
/// browser's would; the whole response is read before it is returned.
final class TestClient: Sendable {
    struct Configuration: Sendable {
        /// How long a request may wait for its whole response (a minute: the suites run under
        /// AddressSanitizer beside each other, and a picture's decoding may wait for a worker).
        var timeout: Duration = .seconds(60)
        var tlsConfiguration: TLSConfiguration?
        /// The name TLS asks for (SNI); the host when it is a name.
        var serverName: String?

        init(timeout: Duration = .seconds(60), tlsConfiguration: TLSConfiguration? = nil, serverName: String? = nil) {
            self.timeout = timeout
            self.tlsConfiguration = tlsConfiguration
            self.serverName = serverName
        }
    }

    let host: String
    let port: Int?
    let configuration: Configuration
    private let connections = NIOLockedValueBox<(idle: [any Channel], all: [any Channel])>(([], []))

    init(host: String, port: Int, configuration: Configuration) {
        self.host = host
        self.port = port
        self.configuration = configuration
    }

    /// Calls `body` with a client of `host:port`, whose connections are closed when it returns.
    static func withClient<Value>(host: String, port: Int, configuration: Configuration = .init(),
                                  _ body: (TestClient) async throws -> Value) async throws -> Value {
        let client = TestClient(host: host, port: port, configuration: configuration)
        do {
            let value = try await body(client)
            await client.shutdown()
            return value
        } catch {
            await client.shutdown()
            throw error
        }
    }

    func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await execute(uri: uri, method: .get, headers: headers, body: nil)
    }

    func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> TestResponse {
        var fields = headers
        if let body, fields[.contentLength] == nil { fields[.contentLength] = String(body.readableBytes) }
        let head = HTTPRequest(method: method, scheme: nil, authority: "localhost", path: uri, headerFields: fields)
        let channel = try await checkOut()
        let response = channel.eventLoop.makePromise(of: TestResponse.self)
        let limit = configuration.timeout
        let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(limit.components.seconds) * 1_000_000_000
                                                                    + limit.components.attoseconds / 1_000_000_000)) {
            channel.pipeline.fireUserInboundEventTriggered(Exchanges.TimedOut(limit: limit))
        }
        channel.writeAndFlush(Exchange(head: head, body: body, response: response), promise: nil)
        defer { deadline.cancel() }
        let answer = try await response.futureResult.get()
        checkIn(channel)
        return answer
    }

    /// Closes every connection.
    func shutdown() async {
        let all = connections.withLockedValue { state in
            defer { state = ([], []) }
            return state.all
        }
        for channel in all { try? await channel.close() }
    }

    private func checkOut() async throws -> any Channel {
        let idle: (any Channel)? = connections.withLockedValue { state in
            while let channel = state.idle.popLast() {
                if channel.isActive { return channel }
            }
            return nil
        }
        if let idle { return idle }
        let channel = try await connect()
        connections.withLockedValue { $0.all.append(channel) }
        return channel
    }

    private func checkIn(_ channel: any Channel) {
        guard channel.isActive else { return }
        connections.withLockedValue { $0.idle.append(channel) }
    }

    private func connect() async throws -> any Channel {
        let tls = try configuration.tlsConfiguration.map { try NIOSSLContext(configuration: $0) }
        let serverName = configuration.serverName ?? host
        return try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    if let tls {
                        try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName))
                    }
                    try pipeline.addHTTPClientHandlers()
                    try pipeline.addHandler(HTTP1ToHTTPClientCodec())
                    try pipeline.addHandler(Exchanges())
                }
            }
            .connect(host: host, port: port ?? 0).get()
    }
}

/// One request on its way, with the promise of its response.
private struct Exchange: Sendable {
    let head: HTTPRequest
    let body: ByteBuffer?
    let response: EventLoopPromise<TestResponse>
}

/// Writes each request and collects the response that answers it, in order. A closed connection
/// or a timed-out request fails every request still waiting on the connection, and closes it.
private final class Exchanges: ChannelDuplexHandler {
    typealias InboundIn = HTTPResponsePart
    typealias OutboundIn = Exchange
    typealias OutboundOut = HTTPRequestPart

    struct TimedOut { let limit: Duration }

    private var waiting = CircularBuffer<EventLoopPromise<TestResponse>>()
    private var head: HTTPResponse?
    private var body = ByteBuffer()

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let exchange = unwrapOutboundIn(data)
        waiting.append(exchange.response)
        context.write(wrapOutboundOut(.head(exchange.head)), promise: nil)
        if let body = exchange.body, body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(body)), promise: nil)
        }
        context.write(wrapOutboundOut(.end(nil)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let response) where response.status.kind == .informational:
            break
        case .head(let response):
            head = response
            body.clear()
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end(let trailers):
            if let head, let waiting = waiting.popFirst() {
                waiting.succeed(TestResponse(head: head, body: body, trailerHeaders: trailers))
            }
            head = nil
            body = ByteBuffer()
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let timedOut = event as? TimedOut {
            failAll(TestHTTPError.timedOut(timedOut.limit))
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        failAll(TestHTTPError.closed)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        failAll(error)
        context.close(promise: nil)
    }

    private func failAll(_ error: any Error) {
        while let promise = waiting.popFirst() { promise.fail(error) }
    }
}
