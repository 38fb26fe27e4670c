import Foundation
import GeoQR

/// Token buckets per client and kind of request: join and sign-in are slow (guessing PINs or
/// filling the hunt with names), claims faster (a camera sends a few frames a second).
///
/// ```swift
/// let limiter = RateLimiter(rules: [.join: .init(burst: 10, perSecond: 0.2)])
/// try await limiter.admit(.join, client: "192.168.1.23", now: .now)   // throws 429 when empty
/// ```
public actor RateLimiter {
    /// What a limit is counted for.
    public enum Kind: String, Sendable, Hashable {
        case join, signIn = "sign-in", claim, frame
        /// A player's position (`POST /api/me/position`), which a phone sends as it walks.
        case position
        /// Trade offers, answers and cancels.
        case trade
        /// Reports of a cache that needs maintenance (each may carry a photo).
        case report
        /// Photos sent for a station's photo task.
        case photo
        /// Opening an event stream (`/api/live`, the control room's feed).
        case streamOpen = "stream-open"
    }

    /// A bucket of `burst` requests that refills at `perSecond`.
    public struct Rule: Sendable {
        public var burst: Double
        public var perSecond: Double
        public init(burst: Double, perSecond: Double) {
            self.burst = burst
            self.perSecond = perSecond
        }
    }

    /// Limits for a session on a LAN: a class of 40 behind one Wi-Fi NAT still fits.
    public static let standard: [Kind: Rule] = [
        .join: Rule(burst: 40, perSecond: 0.5),
        .signIn: Rule(burst: 20, perSecond: 0.2),
        .claim: Rule(burst: 30, perSecond: 2),
        .frame: Rule(burst: 40, perSecond: 8),
        .position: Rule(burst: 20, perSecond: 0.5),
        .trade: Rule(burst: 20, perSecond: 0.2),
        .report: Rule(burst: 5, perSecond: 1.0 / 60),
        .photo: Rule(burst: 5, perSecond: 1.0 / 60),
        .streamOpen: Rule(burst: 20, perSecond: 0.2),
    ]

    private let rules: [Kind: Rule]
    private var buckets: [String: (tokens: Double, at: Date)] = [:]

    public init(rules: [Kind: Rule] = RateLimiter.standard) {
        self.rules = rules
    }

    /// Takes one token for `client`, or throws a 429 that says when to retry.
    func admit(_ kind: Kind, client: String, now: Date = Date()) throws(APIError) {
        guard let rule = rules[kind] else { return }
        let key = kind.rawValue + "|" + client
        var (tokens, at) = buckets[key] ?? (rule.burst, now)
        tokens = min(rule.burst, tokens + now.timeIntervalSince(at) * rule.perSecond)
        guard tokens >= 1 else {
            buckets[key] = (tokens, now)
            let wait = Int(((1 - tokens) / max(rule.perSecond, 0.001)).rounded(.up))
            var error = APIError(.tooManyRequests, "rate-limited", Phrase("error.rate-limited", [
                "kind": .phrase(Phrase("request." + kind.rawValue)), "seconds": .integer(wait),
            ]))
            error.headers[.retryAfter] = String(wait)
            throw error
        }
        buckets[key] = (tokens - 1, now)
        if buckets.count > 10_000 { buckets = buckets.filter { now.timeIntervalSince($0.value.at) < 3600 } }
    }
}
