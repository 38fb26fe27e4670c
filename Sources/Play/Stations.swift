import Foundation
import GeoQR
import Ledger

extension Game {
    /// How each cache is doing, for the control room: finds, refused claims by verdict, open
    /// reports, the last find and the last refusal, whether it is disabled, and a warning when
    /// it looks as if its code is missing or unreadable (``StationHealth/warning``).
    ///
    /// ```swift
    /// for station in try await game.stations() where station.warning != nil { print(station.id, station.warning!) }
    /// ```
    public func stations() async throws -> [StationHealth] {
        let finds = try await store.finds(hunt: huntID, player: nil).filter { $0.voidReason == nil }
        let attempts = try await store.attempts(hunt: huntID)
        let reports = try await store.openReports(hunt: huntID)
        let disabled = try await store.disabledCaches(hunt: huntID)
        let now = clock()
        return hunt.caches.map { cache in
            StationHealth(cache, finds: finds.filter { $0.cache == cache.id }.map(\.time),
                          attempts: attempts.filter { $0.cache == cache.id },
                          openReports: reports.filter { $0.cache == cache.id }.count,
                          disabled: disabled.contains(cache.id), now: now)
        }
    }
}

/// One cache as the game master watches it during a hunt.
public struct StationHealth: Sendable, Equatable, Encodable {
    /// Refused claims since the cache's last find (or ever, if nobody found it) that make the
    /// game master look: players reach the cache and their scans fail.
    public static let refusalsBeforeWarning = 3
    /// How long without a find before those refusals are a warning: a find since says the
    /// code still works.
    public static let quietBeforeWarning: TimeInterval = 30 * 60
    /// Refusals that say nothing about the code: a player still too far away, or a cache the
    /// game master has closed.
    public static let verdictsNotCounted: Set<Verdict> = [.tooFar, .cacheDisabled]

    public var id: String
    public var name: String
    /// Finds not voided.
    public var finds: Int
    /// Refused claims by verdict (`too-far`, `forged`, `no-location`…).
    public var refused: [String: Int]
    public var openReports: Int
    /// When the last find's code was scanned.
    public var lastFind: Date?
    /// When the last refused claim's code was scanned.
    public var lastRefused: Date?
    public var disabled: Bool
    /// Set when ``refusalsBeforeWarning`` or more refusals (not ``verdictsNotCounted``) came
    /// since the last find and no find came for ``quietBeforeWarning``: the code may be
    /// missing, soaked or misplaced.
    public var warning: String?

    /// - parameter finds: scan times of the cache's finds that are not voided.
    /// - parameter attempts: the cache's refused claims.
    public init(_ cache: Cache, finds: [Date], attempts: [Attempt], openReports: Int, disabled: Bool, now: Date) {
        id = cache.id
        name = cache.name
        self.finds = finds.count
        refused = Dictionary(attempts.map { ($0.verdict.rawValue, 1) }, uniquingKeysWith: +)
        self.openReports = openReports
        lastFind = finds.max()
        lastRefused = attempts.map(\.time).max()
        self.disabled = disabled
        warning = Self.warning(lastFind: lastFind, attempts: attempts, now: now)
    }

    static func warning(lastFind: Date?, attempts: [Attempt], now: Date) -> String? {
        let telling = attempts.filter { attempt in
            !verdictsNotCounted.contains(attempt.verdict) && lastFind.map { attempt.time > $0 } ?? true
        }
        guard telling.count >= refusalsBeforeWarning else { return nil }
        let advice = "the code may be missing, soaked or misplaced"
        guard let lastFind else { return "\(telling.count) refused scans and no find yet: \(advice)" }
        let quiet = now.timeIntervalSince(lastFind)
        guard quiet >= quietBeforeWarning else { return nil }
        return "\(telling.count) refused scans and no find for \(Int(quiet / 60)) min: \(advice)"
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, finds, refused, openReports, lastFind, lastRefused, disabled, warning
    }

    /// Every field always, `null` where there is nothing: the control room draws a table.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id); try c.encode(name, forKey: .name)
        try c.encode(finds, forKey: .finds); try c.encode(refused, forKey: .refused)
        try c.encode(openReports, forKey: .openReports)
        try c.encode(lastFind, forKey: .lastFind); try c.encode(lastRefused, forKey: .lastRefused)
        try c.encode(disabled, forKey: .disabled); try c.encode(warning, forKey: .warning)
    }
}
