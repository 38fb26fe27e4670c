import Foundation
import HTTPTypes
@testable import HuntServer
import Testing

/// The rate limiter's table on a public server: a request costs one lookup, buckets that filled
/// up again are forgotten, the table has a ceiling, and an IPv6 /64 is one client for joins.
@Suite("Rate limiter")
struct RateLimiterTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    func refused(_ limiter: RateLimiter, _ client: String, at time: TimeInterval, kind: RateLimiter.Kind = .position) -> String? {
        do {
            try limiter.admit(kind, client: client, now: Self.start + time)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func aBucketThatFilledUpIsForgottenAndOneHeldBackIsKept() {
        let limiter = RateLimiter(rules: [.position: .init(burst: 3, perSecond: 1)])
        for _ in 1...3 { #expect(refused(limiter, "hog", at: 0) == nil) }
        #expect(refused(limiter, "hog", at: 0) == "rate-limited")
        // 5,000 players report once each: three sweeps run, none may forget the hog.
        for i in 1...5_000 { #expect(refused(limiter, "P\(i)", at: 0.5) == nil) }
        #expect(limiter.work.looked > 0, "the table was swept")
        #expect(refused(limiter, "hog", at: 0.6) == "rate-limited", "a sweep kept the bucket that is still held back")
        // Ten seconds on, every bucket has filled up again: the next sweep, when the table has
        // doubled since the last (8,192), forgets them all and keeps the newcomers'.
        for i in 1...4_000 { #expect(refused(limiter, "Q\(i)", at: 10) == nil) }
        #expect(limiter.work.buckets == 4_000, "the first 5,001 full buckets were forgotten: \(limiter.work)")
    }

    @Test func aRequestCostsOneLookupAndSweepsArePaidForByNewClients() {
        // Buckets that fill up in about half an hour: nothing can be forgotten during the test.
        let limiter = RateLimiter(rules: [.position: .init(burst: 2, perSecond: 0.001)], capacity: 1_000_000)
        for i in 1...100_000 { _ = refused(limiter, "P\(i)", at: 0) }
        let afterJoining = limiter.work
        #expect(afterJoining.buckets == 100_000)
        #expect(afterJoining.looked <= 2 * 100_000, "sweeps looked at \(afterJoining.looked) buckets for 100,000 new clients")
        for i in 1...100_000 { _ = refused(limiter, "P\(i)", at: 1) }
        #expect(limiter.work.looked == afterJoining.looked, "requests from known clients sweep nothing")
    }

    @Test func aFullTableTurnsNewClientsAwayButNotKnownOnes() {
        let limiter = RateLimiter(rules: [.position: .init(burst: 2, perSecond: 0.001)], capacity: 1_000)
        for i in 1...1_000 { #expect(refused(limiter, "P\(i)", at: 0) == nil) }
        do {
            try limiter.admit(.position, client: "newcomer", now: Self.start + 0.1)
            Issue.record("the 1,001st client was let in")
        } catch {
            #expect(error.status == .serviceUnavailable && error.code == "server-busy")
            #expect(error.headers[.retryAfter] == "1")
        }
        #expect(refused(limiter, "P7", at: 0.2) == nil, "a known client still has its last token")
        #expect(refused(limiter, "P7", at: 0.3) == "rate-limited", "and its own limit")
        #expect(refused(limiter, "newcomer", at: 2) == "server-busy", "swept again a second later, nothing had filled up")
        #expect(limiter.work.buckets == 1_000)
        // An hour on, the buckets have filled up again and are forgotten: room for the newcomer.
        #expect(refused(limiter, "newcomer", at: 3_600) == nil)
        #expect(limiter.work.buckets == 1)
    }

    @Test func joinsFromOneIPv6SlashSixtyFourShareOneBucket() async throws {
        let h = try Harness(limits: [.join: .init(burst: 2, perSecond: 0.001)]) { $0.trustedProxies = TrustedProxies(["127.0.0.1"]) }
        let forwardedFor = HTTPField.Name("X-Forwarded-For")!
        try await h.app.test(.live) { client in
            var statuses: [HTTPResponse.Status] = []
            for (i, address) in ["2001:db8:1:2::a", "2001:db8:1:2:ffff::b", "2001:DB8:1:2:1:2:3:4"].enumerated() {
                statuses.append(try await client.call(.post, "/api/join", json: ["name": "Guest\(i)", "pin": "4321"],
                                                      headers: [forwardedFor: address]).status)
            }
            #expect(statuses == [.created, .created, .tooManyRequests], "three addresses of one /64 are one client")
            let elsewhere = try await client.call(.post, "/api/join", json: ["name": "Guest9", "pin": "4321"],
                                                  headers: [forwardedFor: "2001:db8:1:3::a"])
            #expect(elsewhere.status == .created, "the next /64 is another client: \(elsewhere.text)")
        }
    }
}
