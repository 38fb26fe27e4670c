import Foundation
import HTTPTypes
import HuntServer
import Ledger
import Testing

/// Issue 24 §3: event streams per token and per address, resumes from too far back, idle and
/// slow connections, and a full server that still answers `/healthz`.
@Suite("Connection and stream limits")
struct ConnectionLimitsTests {
    /// Past the cap a token's oldest stream ends (a reconnecting phone's old stream is the dead
    /// one); past the address's cap a new token is refused with a 429, but a token that holds a
    /// stream from there trades its oldest.
    @Test func streamsAreCappedPerTokenAndPerAddress() async throws {
        let live = LiveEvents(limits: StreamLimits(perToken: 2, perAddress: 3))
        let (first, firstEvents) = try await live.subscribe(.player("P1"), token: "t1", address: "10.0.0.1")
        _ = try await live.subscribe(.player("P1"), token: "t1", address: "10.0.0.1")
        _ = try await live.subscribe(.player("P1"), token: "t1", address: "10.0.0.1")   // ends `first`
        #expect(await live.listenerCount == 2)
        #expect(await firstEvents.next(after: 0) == nil, "the token's oldest stream ended")
        await live.unsubscribe(first)   // as its response does; a no-op now

        _ = try await live.subscribe(.player("P2"), token: "t2", address: "10.0.0.1")
        #expect(await live.listenerCount == 3)
        do {
            _ = try await live.subscribe(.player("P3"), token: "t3", address: "10.0.0.1")
            Issue.record("a fourth stream from a full address was let in")
        } catch {
            #expect(error.status == .tooManyRequests && error.code == "too-many-streams")
            #expect(error.headers[.retryAfter] == "30")
        }
        // P2 reconnecting from the same full address gets in, in place of its own old stream.
        _ = try await live.subscribe(.player("P2"), token: "t2", address: "10.0.0.1")
        #expect(await live.listenerCount == 3)
        // Another address is not held up by this one.
        _ = try await live.subscribe(.player("P3"), token: "t3", address: "10.0.0.2")
        #expect(await live.listenerCount == 4)
        await live.closeAll()
    }

    /// Stream opens are counted per player by the rate limiter's `stream-open` kind.
    @Test func streamOpensAreRateLimited() async throws {
        let h = try Harness(limits: [.streamOpen: .init(burst: 2, perSecond: 0.001)])
        try await h.app.test(.live) { client in
            let port = try #require(client.port)
            let bo = try await client.join("Bo")
            let url = "http://127.0.0.1:\(port)/api/live?token=\(bo.token)"
            let streams = try (0..<2).map { _ in try CurlStream(url) }
            try await LiveResumeTests.waitForListeners(h, 2)
            let third = try await client.call(.get, "/api/live?token=\(bo.token)")
            #expect(third.status == .tooManyRequests && third.error == "rate-limited", "\(third.text)")
            #expect(third.headers[.retryAfter] != nil)
            for stream in streams { _ = stream.stop() }
            await h.session.live.closeAll()
        }
    }

    /// A resume from further back than 500 ledger events is one `fresh-state` event whose id is
    /// the ledger's head, not a replay; the stream then goes on live from there.
    @Test func aResumeFromTooFarBackIsAFreshStateNotAReplay() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let port = try #require(client.port)
            let ada = try await client.join("Ada")
            for i in 0..<510 { _ = try await client.join("Runner \(i)") }
            let head = try await h.session.store.headSeq()
            #expect(head > 510)
            let url = "http://127.0.0.1:\(port)/api/live?token=\(ada.token)"
            let stream = try CurlStream(url, lastEventID: 0)
            let ids = try await stream.ids(atLeast: 1)
            #expect(ids == [head], "one fresh-state, with the head's id")
            _ = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)
            let after = try await stream.ids(atLeast: 2)
            let text = stream.stop()
            #expect(text.contains("event: fresh-state\ndata: {\"after\":0,\"reason\":\"resume-too-far-back\"}"), "\(text.suffix(400))")
            #expect(after.count == 2 && after[1] > head && text.contains("event: find"), "live news follows: \(after)")

            // From near the head: told event by event, as before.
            let near = try CurlStream(url, lastEventID: head - 2)
            let replayed = try await near.ids(atLeast: 1)
            let nearText = near.stop()
            #expect(!nearText.contains("fresh-state") && replayed == [after[1]], "the missed find, told: \(nearText.suffix(300))")
            await h.session.live.closeAll()
        }
    }

    /// A real `HuntServer` on a loopback port with `limits`; cancel the task to stop it.
    static func serve(_ h: Harness, limits: ConnectionLimits) async throws -> (port: Int, running: Task<Void, any Error>) {
        let server = HuntServer(session: h.session, listeners: [.init(host: "127.0.0.1", port: 0)], limits: limits)
        let bound = PortBox()
        let running = Task { try await server.run { _, port in bound.set(port) } }
        return (try await bound.wait(), running)
    }

    /// Idle sockets past the cap are shed, longest idle first, so `/healthz` gets in at once. The
    /// idle timeout here is a minute, so nothing but shedding closes them. (Which sockets are
    /// "longest idle" is the server's order of accepting them, which two event loops may
    /// shuffle: the test counts them.)
    @Test func idleSocketsPastTheCapAreShedForANewConnection() async throws {
        let h = try Harness()
        let limits = ConnectionLimits(idleTimeout: .seconds(60), bodyGrace: .seconds(60), minimumBodyRate: 1, maximumConnections: 4)
        let (port, running) = try await Self.serve(h, limits: limits)
        defer { running.cancel() }
        let ada = try await Harness.joinOver(port: port, name: "Ada")
        let stream = try CurlStream("http://127.0.0.1:\(port)/api/live?token=\(ada)")
        try await LiveResumeTests.waitForListeners(h, 1)
        // The stream and three idle sockets fill the server; a fourth and /healthz each shed one.
        let idle = try (0..<4).map { _ in try RawSocket(port: port) }
        try await Task.sleep(for: .milliseconds(300))
        let health = try RawSocket(port: port)
        try health.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let answer = try await health.read(until: "\"status\":\"ok\"", seconds: 5)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer)")
        var shed = 0
        for _ in 0..<40 {
            shed = idle.filter { $0.closedByServer() }.count
            if shed >= 2 { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(shed == 2, "two idle sockets made room, the other two stay")
        #expect(await h.session.live.listenerCount == 1, "a stream is never shed")
        _ = stream.stop()
        await h.session.live.closeAll()
    }

    /// A real server with tiny limits: an idle socket and a slow head are closed after the idle
    /// timeout, a slow body after its grace, and an event stream outlives them all.
    @Test func idleAndSlowConnectionsGiveWayAndStreamsStay() async throws {
        let h = try Harness()
        let limits = ConnectionLimits(idleTimeout: .seconds(1), bodyGrace: .seconds(1), minimumBodyRate: 4096, maximumConnections: 16)
        let (port, running) = try await Self.serve(h, limits: limits)
        defer { running.cancel() }
        let ada = try await Harness.joinOver(port: port, name: "Ada")

        let stream = try CurlStream("http://127.0.0.1:\(port)/api/live?token=\(ada)")
        try await LiveResumeTests.waitForListeners(h, 1)
        let idle = try (0..<4).map { _ in try RawSocket(port: port) }

        // A head trickled and a body trickled: both closed within the timeouts.
        let slowHead = try RawSocket(port: port), slowBody = try RawSocket(port: port)
        try slowHead.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
        try slowBody.send("POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{")
        for _ in 0..<60 where !(slowHead.closedByServer() && slowBody.closedByServer()) {
            try? slowHead.send("X")
            try? slowBody.send(" ")
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(slowHead.closedByServer() && slowBody.closedByServer(), "slow clients closed within 6 s")
        #expect(idle.allSatisfy { $0.closedByServer() }, "idle sockets closed after the idle timeout")
        // The stream, idle as long, is still open.
        #expect(await h.session.live.listenerCount == 1)
        _ = stream.stop()
        await h.session.live.closeAll()
    }
}

extension Harness {
    /// Joins over a raw socket (for `HuntServer`s, which `test(.live)` does not run): the token.
    static func joinOver(port: Int, name: String) async throws -> String {
        let body = "{\"name\":\"\(name)\",\"pin\":\"4321\"}"
        let socket = try RawSocket(port: port)
        try socket.send("POST /api/join HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        // Generous: the suite runs in parallel under ASan, and every join waits for bcrypt on one shared pool.
        // Until the token's closing quote: the answer's keys come in no fixed order, and the
        // connection stays open (waiting for "}}" waited a minute, for the idle timeout, on the
        // runs whose answer ended with the token).
        func token(_ answer: String) -> String? {
            let after = answer.components(separatedBy: "\"token\":\"").dropFirst().first
            guard let after, after.contains("\"") else { return nil }
            return String(after.prefix { $0 != "\"" })
        }
        let answer = try await socket.read(seconds: 90) { token($0) != nil }
        return try #require(token(answer), "\(answer)")
    }
}

/// The port a server bound, once it is up.
final class PortBox: @unchecked Sendable {   // `port` only under `lock`
    private let lock = NSLock()
    private var port: Int?
    func set(_ value: Int) { lock.withLock { port = value } }
    func wait() async throws -> Int {
        for _ in 0..<500 {
            if let port = lock.withLock({ port }) { return port }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CancellationError()
    }
}

/// A blocking TCP client socket to 127.0.0.1, for clients that misbehave on purpose.
final class RawSocket: @unchecked Sendable {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(fd); throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw POSIXError(.EPIPE) }
    }

    /// True when the server closed its end (EOF or reset), without waiting.
    func closedByServer() -> Bool {
        var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&poll, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }

    /// What arrives until `marker` is in it, or `seconds` pass.
    func read(until marker: String, seconds: Double) async throws -> String {
        try await read(seconds: seconds) { $0.contains(marker) }
    }

    /// What arrives until it is `complete`, or `seconds` pass.
    func read(seconds: Double, until complete: (String) -> Bool) async throws -> String {
        var text = ""
        let deadline = Date().addingTimeInterval(seconds)
        while !complete(text), Date() < deadline {
            var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if Glibc.poll(&poll, 1, 0) > 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = recv(fd, &buffer, buffer.count, 0)
                if n <= 0 { break }
                text += String(decoding: buffer[0..<n], as: UTF8.self)
            } else {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        return text
    }
}
