import Foundation

/// How many files (sockets included) this process may hold open: its `RLIMIT_NOFILE`.
/// Linux starts a process at a soft limit of 1,024, whatever the hard limit allows: `geoqr
/// serve` raises the soft limit to the hard one at start (``raise()``), and sizes its
/// ``ConnectionLimits`` by what it got.
///
/// ```swift
/// let limit = DescriptorLimit.raise()   // e.g. soft 8192, hard 8192 under deploy/geoqr.service
/// ```
public struct DescriptorLimit: Sendable, Equatable {
    public var soft: Int
    public var hard: Int

    /// Below this, a public hunt can run out: the server says so at start.
    public static let comfortable = 4096

    /// The limit in force now.
    public static var current: DescriptorLimit {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return .init(soft: 1024, hard: 1024) }
        return .init(soft: Self.count(limit.rlim_cur), hard: Self.count(limit.rlim_max))
    }

    /// Raises the soft limit as far as the hard limit allows (an unlimited hard limit counts
    /// as 2^20, the kernel's default `nr_open`); answers the limit in force afterwards.
    @discardableResult
    public static func raise() -> DescriptorLimit {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return current }
        let wanted = limit.rlim_max == rlim_t.max ? rlim_t(1 << 20) : limit.rlim_max
        if limit.rlim_cur != rlim_t.max, limit.rlim_cur < wanted {
            limit.rlim_cur = wanted
            _ = setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        }
        return current
    }

    private static func count(_ value: rlim_t) -> Int {
        value == rlim_t.max ? Int(Int32.max) : Int(clamping: value)
    }
}
