import Foundation
@testable import HuntServer
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
}
