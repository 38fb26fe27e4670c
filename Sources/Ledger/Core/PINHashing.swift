import Foundation
import HummingbirdBcrypt
import Workers

/// bcrypt for PINs (join, sign-in, PIN reset), on threads of its own.
///
/// bcrypt is slow on purpose (tens of milliseconds at cost 10), and it was run on Swift's
/// shared pool: forty joins at once delayed `/healthz` by 2.2 s. Here it runs on ``pool``, a
/// thread per core at a lower priority, behind a bounded queue: past it a join or sign-in is
/// refused at once with ``Workers/WorkerPoolError/full(pool:retryAfter:)`` (503 and
/// `Retry-After` at the API) instead of waiting behind seconds of other players' hashing. Both
/// stores, SQLite and PostgreSQL, hash here.
///
/// ```swift
/// let hash = try await PINHashing.hash("4821", cost: 10)
/// let right = try await PINHashing.verify("4821", hash: hash)
/// ```
public enum PINHashing {
    /// A thread per core; 256 hashes a core may wait (about eight seconds of work at cost 10):
    /// several classes joining at the same minute wait their turn rather than being refused.
    /// The queue is the last bound, not the first: sign-in attempts are counted per network
    /// before any hashing (`Guesses`, in Play) and joins are rate-limited per address, so only
    /// many addresses at once reach it. (At 32 a core, a test process's parallel suites, each
    /// joining players at cost 10 under AddressSanitizer, were refused with 503.)
    public static let pool = WorkerPool(name: "PIN checks", threads: ProcessInfo.processInfo.activeProcessorCount,
                                        queueLimit: 256 * ProcessInfo.processInfo.activeProcessorCount)

    /// The bcrypt hash of `pin` at `cost`.
    public static func hash(_ pin: String, cost: UInt8) async throws -> String {
        try await pool.run { Bcrypt.hash(pin, cost: cost) }
    }

    /// Whether `pin` matches `hash`.
    public static func verify(_ pin: String, hash: String) async throws -> Bool {
        try await pool.run { Bcrypt.verify(pin, hash: hash) }
    }
}
