import Foundation
@testable import HuntServer
import NIOSSL
import Testing

/// A stream on a real connection hands its writes over to the lanes, which write straight to
/// the connection on its event loop (``LiveMailbox/writeDirectly(to:after:)``): what it writes
/// must still be one well-formed chunked response, end with the response's end when the stream
/// is ended, and a phone that hangs up must be let go of when the connection closes, since no
/// task of the stream waits on a write to hear it.
@Suite("Streams written straight to their connections")
struct DirectStreamTests {
    /// The chunks of a chunked body read so far, checked: each size line matches its data. Nil
    /// when the framing is broken; `ended` once the last (empty) chunk came.
    static func chunks(of response: String) -> (data: String, ended: Bool)? {
        guard let start = response.range(of: "\r\n\r\n") else { return ("", false) }
        var rest = Substring(response[start.upperBound...]).utf8
        var data = ""
        while !rest.isEmpty {
            guard let lineEnd = rest.firstRange(of: "\r\n".utf8) else { return (data, false) }   // a size line in flight
            guard let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self), radix: 16) else { return nil }
            let body = rest[lineEnd.upperBound...]
            guard body.count >= size + 2 else { return (data, false) }   // a chunk in flight
            let chunkEnd = body.index(body.startIndex, offsetBy: size)
            guard body[chunkEnd...].starts(with: "\r\n".utf8) else { return nil }
            if size == 0 { return (data, true) }
            data += String(decoding: body[..<chunkEnd], as: UTF8.self)
            rest = body[body.index(chunkEnd, offsetBy: 2)...]
        }
        return (data, false)
    }

    @Test func aDirectStreamIsOneChunkedResponseThatEndsCleanlyAndIsLetGoWhenThePhoneHangsUp() async throws {
        let h = try Harness()
        let (port, running) = try await ConnectionLimitsTests.serve(h, limits: .forDescriptors(1024))
        defer { running.cancel() }
        let ada = try await Harness.joinOver(port: port, name: "Ada")
        func open() throws -> RawSocket {
            let socket = try RawSocket(port: port)
            try socket.send("GET /api/live?token=\(ada) HTTP/1.1\r\nHost: x\r\n\r\n")
            return socket
        }
        // The lanes frame the chunks themselves, which holds only for a body the encoder chunks:
        // a HEAD (whose response has no body) never reaches the stream.
        let head = try RawSocket(port: port)
        try head.send("HEAD /api/live?token=\(ada) HTTP/1.1\r\nHost: x\r\n\r\n")
        let refused = try await head.read(until: "\r\n\r\n", seconds: 30)
        #expect(refused.hasPrefix("HTTP/1.1 405"), "\(refused)")
        let first = try open()
        var text = try await first.read(until: "event: rank", seconds: 30)
        #expect(text.hasPrefix("HTTP/1.1 200"), "\(text)")
        #expect(text.lowercased().contains("transfer-encoding: chunked"), "\(text)")

        // Bo joins: the standings' top now counts two players, which the lanes' turn writes
        // to Ada's stream straight to its connection.
        _ = try await Harness.joinOver(port: port, name: "Bo")
        await h.session.broadcastLeaderboard()
        text += try await first.read(seconds: 30) { Self.chunks(of: text + $0)?.data.contains("\"players\":2") == true }
        let heard = try #require(Self.chunks(of: text), "the chunked framing holds: \(text)")
        #expect(heard.data.contains("\"players\":2") && !heard.ended, "\(heard.data)")

        // Four newer streams of the same token end the oldest: its response ends with the
        // last chunk, after everything written straight to it.
        var newer = try (0..<4).map { _ in try open() }
        for socket in newer { _ = try await socket.read(until: "event: rank", seconds: 30) }
        text += try await first.read(seconds: 30) { Self.chunks(of: text + $0)?.ended == true }
        #expect(Self.chunks(of: text)?.ended == true, "the ended stream's response ends: \(text.suffix(300))")

        // The phones hang up (their sockets closed): the server lets go of their streams once
        // the next news written to them meets the reset, with no task of theirs left waiting.
        #expect(await h.session.live.listenerCount == 4)
        newer.removeAll()
        _ = try await Harness.joinOver(port: port, name: "Cy")
        await h.session.broadcastLeaderboard()
        for _ in 0..<250 where await h.session.live.listenerCount > 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(await h.session.live.listenerCount == 0, "streams of phones that hung up are let go within 5 s")
    }

    /// The lanes' writes enter the connection's pipeline below the HTTP/1 encoder, framed as
    /// its chunks: over TLS they must still be encrypted (the TLS handler lies below the
    /// encoder), and a phone that asks in HTTP/1.0 must still read them (the answer is an
    /// HTTP/1.1 chunked one all the same: swift-nio-extras' conversion answers every request as
    /// HTTP/1.1, and the lanes' framing is only right while it does). curl reads both: a chunk
    /// or a record out of place would show as an error or as garbage instead of the news.
    @Test(arguments: ["tls", "http1.0"])
    func directWritesReachAPhoneOverTLSAndOverHTTP10(_ kind: String) async throws {
        let h = try Harness()
        let made = try SelfSignedCertificate.loadOrMake(directory: h.directory, for: NetworkAddresses(names: ["localhost"], lanIPv4: []))
        let tls = try SelfSignedCertificate.serverConfiguration(certificate: made.certificatePath, key: made.keyPath)
        let server = HuntServer(session: h.session, listeners: [.init(host: "127.0.0.1", port: 0),
                                                                .init(host: "127.0.0.1", port: 0, tls: tls)],
                                limits: .forDescriptors(1024))
        let plain = PortBox(), secure = PortBox()
        let running = Task { try await server.run { listener, port in (listener.tls == nil ? plain : secure).set(port) } }
        defer { running.cancel() }
        let port = try await plain.wait(), tlsPort = try await secure.wait()
        let ada = try await Harness.joinOver(port: port, name: "Ada")
        let stream = kind == "tls"
            ? try CurlStream("https://127.0.0.1:\(tlsPort)/api/live?token=\(ada)", options: ["--insecure"])
            : try CurlStream("http://127.0.0.1:\(port)/api/live?token=\(ada)", options: ["--http1.0"])
        try await stream.waitFor("event: rank", within: .seconds(30))
        #expect(stream.text.hasPrefix("retry: 3000"), "\(stream.text)")
        #expect(!stream.text.contains("\"players\":2"))

        // Bo joins: the standings' top now counts two players, written by the lanes' turn
        // straight to Ada's connection.
        _ = try await Harness.joinOver(port: port, name: "Bo")
        await h.session.broadcastLeaderboard()
        try await stream.waitFor("\"players\":2", within: .seconds(30))
        let text = stream.stop()
        #expect(text.contains("event: standings\ndata: {\"top\":[") && text.contains("\"players\":2}"), "\(text)")
        #expect(!text.contains("\r\n"), "no chunk framing left in what curl hands on: \(text.debugDescription)")
    }
}
