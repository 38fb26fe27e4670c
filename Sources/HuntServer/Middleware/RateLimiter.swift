import Foundation
import GeoQR
import Synchronization

/// Token buckets per client and kind of request: join and sign-in are slow (guessing PINs or
/// filling the hunt with names), claims faster (a camera sends a few frames a second).
///
/// ```swift
/// let limiter = RateLimiter(rules: [.join: .init(burst: 10, perSecond: 0.2)])
/// try limiter.admit(.join, client: "192.168.1.23", now: .now)   // throws 429 when empty
/// ```
public final class RateLimiter: Sendable {
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

    /// How many clients' buckets are kept at most (about 100 bytes each): a bucket that has
    /// filled up again is forgotten, so only clients that spent tokens lately count, and past
    /// this many a new client is told the server is busy rather than the table outgrowing memory.
    public static let standardCapacity = 100_000

    private struct Key: Hashable {
        var kind: Kind
        var client: String
    }

    /// Every client's bucket, and when to look for full ones to forget.
    private struct Table {
        var buckets: [Key: (tokens: Double, at: Date)] = [:]
        /// The size that sets off the next sweep: twice what the last one left (at least
        /// ``RateLimiter/smallestSweep``), so a sweep's pass over the table is paid for by as many
        /// new clients as it looks at, and never by every request.
        var sweepAt = RateLimiter.smallestSweep
        /// When the last sweep ran (a full table is swept at most once a second).
        var swept = Date.distantPast
        /// Buckets looked at by sweeps so far (for tests of the work a request costs).
        var looked = 0
    }

    static let smallestSweep = 1_024
    private let rules: [Kind: Rule]
    private let capacity: Int
    private let table = Mutex(Table())

    /// - Parameter capacity: the most clients' buckets kept at once (``standardCapacity``).
    public init(rules: [Kind: Rule] = RateLimiter.standard, capacity: Int = RateLimiter.standardCapacity) {
        self.rules = rules
        self.capacity = max(1, capacity)
    }

    /// How many buckets are kept, and how many sweeps have looked at since the start.
    var work: (buckets: Int, looked: Int) {
        table.withLock { ($0.buckets.count, $0.looked) }
    }

    private enum Verdict { case admitted, limited(tokens: Double), full }

    /// Takes one token for `client`, or throws a 429 that says when to retry (503
    /// `server-busy` when ``standardCapacity`` clients are all being held back at once).
    /// Costs one dictionary lookup under a lock; sweeps are amortised over new clients.
    func admit(_ kind: Kind, client: String, now: Date = Date()) throws(APIError) {
        guard let rule = rules[kind] else { return }
        let key = Key(kind: kind, client: client)
        let verdict: Verdict = table.withLock { table in
            let tokens: Double
            if let bucket = table.buckets[key] {
                tokens = min(rule.burst, bucket.tokens + now.timeIntervalSince(bucket.at) * rule.perSecond)
            } else {
                guard makeRoom(in: &table, now: now) else { return .full }
                tokens = rule.burst
            }
            guard tokens >= 1 else {
                table.buckets[key] = (tokens, now)
                return .limited(tokens: tokens)
            }
            table.buckets[key] = (tokens - 1, now)
            return .admitted
        }
        switch verdict {
        case .admitted:
            return
        case .limited(let tokens):
            let wait = Int(((1 - tokens) / max(rule.perSecond, 0.001)).rounded(.up))
            var error = APIError(.tooManyRequests, "rate-limited", Phrase("error.rate-limited", [
                "kind": .phrase(Phrase("request." + kind.rawValue)), "seconds": .integer(wait),
            ]))
            error.headers[.retryAfter] = String(wait)
            throw error
        case .full:
            var error = APIError(.serviceUnavailable, "server-busy", Phrase("error.busy-clients", ["seconds": .integer(1)]))
            error.headers[.retryAfter] = "1"
            throw error
        }
    }

    /// Whether a new client's bucket fits, forgetting the buckets that have filled up again
    /// (a full bucket says no more than a missing one) when the table has doubled since the
    /// last sweep, or is full and was last swept over a second ago.
    private func makeRoom(in table: inout Table, now: Date) -> Bool {
        let count = table.buckets.count
        guard count >= table.sweepAt || count >= capacity else { return true }
        if count >= capacity, now.timeIntervalSince(table.swept) < 1 { return false }
        table.looked += count
        table.buckets = table.buckets.filter { key, bucket in
            guard let rule = rules[key.kind] else { return false }
            return bucket.tokens + now.timeIntervalSince(bucket.at) * rule.perSecond < rule.burst
        }
        table.swept = now
        table.sweepAt = min(capacity, max(Self.smallestSweep, 2 * table.buckets.count))
        return table.buckets.count < capacity
    }
}
