import Foundation
import GeoQR
import HummingbirdTesting
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

            // The first stream hears two finds, then drops (curl gives up after 2 s).
            let first = Task { try Self.curl(url, seconds: 2) }
            try await Self.waitForListeners(h, 1)
            _ = try await client.claim(h.code("A1"), token: ada.token, at: Harness.a1)
            _ = try await client.claim(h.code("A1"), token: cy.token, at: Harness.a1)
            let before = try await first.value
            let heard = Self.ids(before)
            try #require(heard.count == 2, "\(before)")

            // While Bo is away: two finds, an offer to Bo, and an offer Bo is no party to.
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
            // (The dropped stream is counted until the server next writes to it.)
            let open = await h.session.live.listenerCount
            let second = Task { try Self.curl(url, seconds: 2, lastEventID: heard.last) }
            try await Self.waitForListeners(h, open + 1)
            #expect(try await client.call(.post, "/api/trades/\(toBo)/decline", token: bo.token)["state"] as? String == "declined")
            _ = try await client.claim(h.code("B1"), token: cy.token, at: Harness.b1)
            let after = try await second.value

            // Exactly Bo's news of the ledger, in order: every find, and the trade he is party to.
            var expected: [Int64] = []
            for event in try await h.session.store.events(after: 0, limit: 1000) {
                switch try event.decodedBody() {
                case .findRecorded: expected.append(event.seq)
                case .tradeOffered(let body) where body.trade.id == toBo: expected.append(event.seq)
                case .tradeClosed(let body) where body.trade == toBo: expected.append(event.seq)
                default: continue
                }
            }
            #expect(expected.count == 7)
            #expect(heard + Self.ids(after) == expected, "first: \(before)\nsecond: \(after)")
            #expect(after.contains("event: trade-offer") && after.contains("event: trade-outcome"))
        }
    }

    /// A Last-Event-ID that is not an event id is a 400 with a JSON error, not a stream.
    @Test func aBadLastEventIDIsRefused() async throws {
        let h = try Harness()
        try await h.app.test(.router) { client in
            let bo = try await client.join("Bo")
            let reply = try await client.call(.get, "/api/live?token=\(bo.token)", headers: [.init("Last-Event-ID")!: "seven"])
            #expect(reply.status == .badRequest && reply.error == "bad-last-event-id")
            #expect(reply.json["message"] as? String == "Last-Event-ID: seven is not an event id (a whole number from an earlier id: line)")
        }
    }

    /// The ids of a stream's events, in order.
    static func ids(_ stream: String) -> [Int64] {
        stream.split(separator: "\n").compactMap { $0.hasPrefix("id: ") ? Int64($0.dropFirst(4)) : nil }
    }

    /// What curl reads of an event stream in `seconds`, sending `Last-Event-ID` when given.
    static func curl(_ url: String, seconds: Int, lastEventID: Int64? = nil) throws -> String {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-sN", "--max-time", "\(seconds)", url] + (lastEventID.map { ["-H", "Last-Event-ID: \($0)"] } ?? [])
        let out = Pipe()
        curl.standardOutput = out
        try curl.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        curl.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func waitForListeners(_ h: Harness, _ n: Int) async throws {
        for _ in 0..<200 where await h.session.live.listenerCount < n {
            try await Task.sleep(for: .milliseconds(10))
        }
        try #require(await h.session.live.listenerCount >= n)
    }
}
