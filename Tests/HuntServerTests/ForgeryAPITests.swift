import ForgeryCorpus
import Foundation
import GeoQR
import HuntServer
import Testing

@Suite("Forged codes at the claim endpoint")
struct ForgeryAPITests {
    /// How many forgeries to send: 10,000 in the suite (every refused claim is a ledger
    /// event, so 100,000 take minutes); `GEOQR_FORGERIES=100000` for the record.
    static let count = ProcessInfo.processInfo.environment["GEOQR_FORGERIES"].flatMap(Int.init) ?? 10_000

    /// A player standing at the cache sends forgeries of its code (and of its neighbour's) by
    /// link: none becomes a find, every one gets a refusal verdict.
    @Test func forgedClaimsAreRefused() async throws {
        let h = try Harness()
        try await h.app.test(.live) { client in
            let eve = try await client.join("Eve")
            let atTheCache = Harness.north(of: Harness.a1, metres: 5)
            let corpus = ForgeryCorpus(genuine: [h.code("A1"), h.code("B1")], seed: 7)
            let tasks = 16, perTask = Self.count / tasks
            let verdicts = try await withThrowingTaskGroup(of: [String: Int].self) { group in
                for t in 0..<tasks {
                    var forgeries = ForgeryCorpus(genuine: corpus.genuine, seed: UInt64(t + 1))
                    let batch = (0..<perTask).map { _ in forgeries.next() }
                    group.addTask {
                        var seen: [String: Int] = [:]
                        for payload in batch {
                            let reply = try await client.call(.post, "/api/claims", token: eve.token, json: [
                                "code": payload, "latitude": atTheCache.latitude, "longitude": atTheCache.longitude])
                            let verdict = reply["verdict"] as? String ?? "\(reply.status.code) \(reply.error ?? "")"
                            seen[verdict, default: 0] += 1
                        }
                        return seen
                    }
                }
                return try await group.reduce(into: [:]) { $0.merge($1, uniquingKeysWith: +) }
            }
            #expect(verdicts.values.reduce(0, +) == tasks * perTask)
            #expect(verdicts["claimable"] == nil && verdicts["already-found"] == nil, "\(verdicts)")
            #expect(Set(verdicts.keys).isSubset(of: ["forged", "no-code", "unknown-hunt", "400 bad-code"]), "\(verdicts)")
            #expect(verdicts["forged", default: 0] > tasks * perTask / 5, "most are well-formed forgeries: \(verdicts)")
            let finds = try await client.call(.get, "/api/me/finds", token: eve.token)
            #expect(finds.status == .ok && !finds.text.contains("\"cache\""), "\(finds.text)")
            // The genuine code still works afterwards.
            let real = try await client.claim(h.code("A1"), token: eve.token, at: atTheCache)
            #expect(real["verdict"] as? String == "claimable")
        }
    }
}
