import Foundation
@testable import HuntServer
import Testing

/// News for the other servers goes out in the background, several items to a NOTIFY when they
/// pile up, in the order told, each payload within PostgreSQL's limit.
@Suite("News for the other servers")
struct ServerNewsTests {
    func item(_ i: Int, padding: Int = 0) -> String {
        let news = ServerNews(origin: "A", hunt: "DEMO", audience: .gameMaster, name: "claim",
                              json: #"{"n":\#(i),"pad":"\#(String(repeating: "x", count: padding))"}"#)
        return String(decoding: try! JSONEncoder().encode(news), as: UTF8.self)
    }

    @Test func packedPayloadsKeepOrderAndLimitAndOldPayloadsStillRead() {
        let items = (0..<50).map { item($0, padding: $0 * 25) }
        let payloads = NewsPublisher.pack(items, limit: 1_000)
        #expect(payloads.count > 1)
        #expect(payloads.allSatisfy { $0.utf8.count <= 1_000 })
        let back = payloads.flatMap(NewsPublisher.unpack).map(\.json)
        let fitting = items.filter { $0.utf8.count + 2 <= 1_000 }
        let told = fitting.map { try! JSONDecoder().decode(ServerNews.self, from: Data($0.utf8)).json }
        // Items longer than the limit on their own are left out; the rest arrive, in order.
        #expect(back == told)
        #expect(fitting.count < items.count && fitting.count > 30)
        // A server of the release before publishes one object, not an array.
        #expect(NewsPublisher.unpack(item(7)).map(\.json) == [#"{"n":7,"pad":""}"#])
        #expect(NewsPublisher.unpack("not json").isEmpty)
    }

    @Test func newsToldWhileOneIsSentGoesOutTogetherInOrder() async throws {
        actor Sent {
            var payloads: [String] = []
            func add(_ p: String) { payloads.append(p) }
        }
        let sent = Sent()
        let publisher = NewsPublisher { payload in
            try await Task.sleep(for: .milliseconds(20))   // a NOTIFY's round trip, slowed
            await sent.add(payload)
        }
        for i in 0..<200 { publisher.tell(item(i)) }
        for _ in 0..<200 {
            if await sent.payloads.flatMap(NewsPublisher.unpack).count == 200 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let payloads = await sent.payloads
        let numbers = payloads.flatMap(NewsPublisher.unpack).map(\.json)
        #expect(numbers == (0..<200).map { #"{"n":\#($0),"pad":""}"# })
        #expect(payloads.count < 20, "200 items took \(payloads.count) NOTIFYs")
    }
}
