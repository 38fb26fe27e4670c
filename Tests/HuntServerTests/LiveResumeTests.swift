import Foundation
import GeoQR
import HuntServer
import Ledger
import Testing

/// News of the ledger carries the event's seq as its `id:`; a stream that drops and reconnects
/// with `Last-Event-ID` hears what it missed, then goes on live: nothing lost, nothing twice.
@Suite("Live stream ids and Last-Event-ID")
struct LiveResumeTests {
    @Test func aDroppedStreamResumesFromLastEventIDWithoutLossOrRepeats() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let port = try #require(client.port)
            let ada = try await client.join("Ada"), bo = try await client.join("Bo"), cy = try await client.join("Cy")
            let url = "http://127.0.0.1:\(port)/api/live?token=\(bo.token)"

            // The first stream hears Bo's own find as ledger news (Ada's and Cy's in digests,
            // with no id), then drops (curl is ended).
            let first = try CurlStream(url)
            try await Self.waitForListeners(h, 1)
            _ = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)
            _ = try await client.claim(h.code("A1"), token: bo.token, at: Harness.a1)
            _ = try await client.claim(h.code("A1"), token: cy.token, at: Harness.a1)
            let heard = try await first.ids(atLeast: 1)
            // The others' finds come at the stream's lane's turn, within a round.
            try await first.waitFor("event: finds", within: h.session.live.findsInterval * 6)
            let before = first.stop()
            try #require(heard.count == 1 && before.contains("event: finds"), "\(before)")

            // While Bo is away: Ada's find and his, an offer to Bo, and an offer Bo is no party to.
            _ = try await client.claim(h.code("B1"), token: ada.token, at: Harness.b1)
            _ = try await client.claim(h.code("B1"), token: bo.token, at: Harness.b1)
            let cards = try await client.call(.get, "/api/me/collection", token: ada.token)["cards"] as? [[String: Any]]
            let adaCard = try #require(cards?.first?["id"] as? String)
            let toBo = try #require(try await client.call(.post, "/api/trades", token: ada.token,
                                                          json: ["to": bo.id, "give": [adaCard]])["id"] as? String)
            let cyCards = try await client.call(.get, "/api/me/collection", token: cy.token)["cards"] as? [[String: Any]]
            let cyCard = try #require(cyCards?.first?["id"] as? String)
            #expect(try await client.call(.post, "/api/trades", token: cy.token, json: ["to": ada.id, "give": [cyCard]]).status == .created)

            // Back, from the last id heard: the missed news first, then live news as it happens.
            // The stream is subscribed once its opening comes (the listeners counted would not
            // say: the dropped stream is counted until the server next writes to it, and a
            // lane's turn in between took it off, 3 runs in 20 on a busy machine).
            let second = try CurlStream(url, lastEventID: heard.last)
            try await second.waitFor("retry: 3000", within: .seconds(10))
            #expect(try await client.call(.post, "/api/trades/\(toBo)/decline", token: bo.token)["state"] as? String == "declined")
            _ = try await client.claim(h.code("B1"), token: cy.token, at: Harness.b1)
            let resumed = try await second.ids(atLeast: 3)
            // Nothing more should come, but Cy's find in a digest (within a round; the only digest
            // naming B1 this stream hears, as the finds it missed are not told again) and whatever
            // would come meanwhile. (Cy's id alone comes sooner, in the standings.)
            try await second.waitFor(#""finds":[{"cache":"B1","cacheName":"#, within: h.session.live.findsInterval * 6)
            try await Task.sleep(for: .milliseconds(200))
            let after = second.stop()
            await h.session.live.closeAll()   // the server's side of the dropped streams ends too

            // Exactly Bo's news of the ledger, in order: his own finds, and the trade he is party
            // to; others' finds come in digests, never again to a stream that resumes.
            var expected: [Int64] = []
            for event in try await h.session.store.events(after: 0, limit: 1000) {
                switch try event.decodedBody() {
                case .findRecorded(let body) where body.claim.player == bo.id: expected.append(event.seq)
                case .tradeOffered(let body) where body.trade.id == toBo: expected.append(event.seq)
                case .tradeClosed(let body) where body.trade == toBo: expected.append(event.seq)
                default: continue
                }
            }
            #expect(expected.count == 4)
            #expect(heard + resumed == expected, "first: \(before)\nsecond: \(after)")
            #expect(CurlStream.ids(after) == resumed, "nothing after the last news")
            #expect(after.contains("event: trade-offer") && after.contains("event: trade-outcome"))
            #expect(after.contains(#""finds":[{"cache":"B1","cacheName":"#) && after.contains(#""player":"\#(cy.id)""#),
                    "Cy's find, live, in a digest: \(after)")
        }
    }

    /// A Last-Event-ID that is not an event id is a 400 with a JSON error, not a stream.
    @Test func aBadLastEventIDIsRefused() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let bo = try await client.join("Bo")
            let reply = try await client.call(.get, "/api/live?token=\(bo.token)", headers: [.init("Last-Event-ID")!: "seven"])
            #expect(reply.status == .badRequest && reply.error == "bad-last-event-id")
            #expect(reply.json["message"] as? String == "Last-Event-ID: seven is not an event id (a whole number from an earlier id: line)")
        }
    }

    static func waitForListeners(_ h: Harness, _ n: Int) async throws {
        for _ in 0..<200 where await h.session.live.listenerCount < n {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(await h.session.live.listenerCount >= n)
    }
}

/// An event stream read by curl into a file, polled without blocking a thread (the server under
/// test runs in this process, on as few threads as the machine has cores), and ended at will:
/// a client that drops.
final class CurlStream: @unchecked Sendable {
    private let curl = Process()
    private let path = NSTemporaryDirectory() + "geoqr-stream-\(UUID().uuidString)"

    /// `options`: curl's own, before the URL (`--http1.0`, `--insecure`).
    init(_ url: String, lastEventID: Int64? = nil, options: [String] = []) throws {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-sN", "--max-time", "120"] + options + [url] + (lastEventID.map { ["-H", "Last-Event-ID: \($0)"] } ?? [])
        curl.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try curl.run()
    }

    deinit {
        if curl.isRunning { kill(curl.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// What curl wrote so far, read with read(2): Foundation's file reading (`String(contentsOfFile:)`,
    /// `FileManager.contents(atPath:)`) leaks its buffer when the file grows while it reads, as
    /// curl's output does (LeakSanitizer found it).
    var text: String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The ids heard so far, once there are at least `count` (or after 30 s, however many).
    func ids(atLeast count: Int) async throws -> [Int64] {
        let deadline = ContinuousClock.now + .seconds(30)
        while Self.ids(text).count < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return Self.ids(text)
    }

    /// Waits until the stream has carried `text` (or `within` has passed: the caller's
    /// expectations then say what is missing).
    func waitFor(_ text: String, within: Duration) async throws {
        let deadline = ContinuousClock.now + within
        while !self.text.contains(text), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    }

    /// Ends the stream (the client goes away) and answers what it read. SIGKILL: the test
    /// runner's threads may block SIGTERM, and a child inherits that.
    func stop() -> String {
        kill(curl.processIdentifier, SIGKILL)
        curl.waitUntilExit()
        return text
    }

    /// The ids of a stream's events, in order.
    static func ids(_ stream: String) -> [Int64] {
        stream.split(separator: "\n").compactMap { $0.hasPrefix("id: ") ? Int64($0.dropFirst(4)) : nil }
    }
}
