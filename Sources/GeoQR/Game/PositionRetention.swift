import Foundation

/// How long a hunt keeps where its players stood: from when it ended (the game master stopped
/// it, or its end passed, whichever came first) for the hunt file's `positionRetentionHours`;
/// then every stored position is dropped.
///
/// ```swift
/// let rule = PositionRetention(hunt: hunt, stoppedAt: lastStop)
/// let from = try rule.dropAllowed(at: .now)   // throws positionsKept(until:) before then
/// ```
public struct PositionRetention: Sendable, Equatable {
    /// When the hunt ended, or nil while it runs.
    public var endedAt: Date?
    public var retentionHours: Double
    let hunt: String

    /// `stoppedAt`: when the game master last stopped the hunt, nil when it is running.
    public init(hunt: Hunt, stoppedAt: Date?, now: Date) {
        let ends = [stoppedAt, hunt.end.flatMap { $0 <= now ? $0 : nil }].compactMap { $0 }
        endedAt = ends.min()
        retentionHours = hunt.positionRetentionHours
        self.hunt = hunt.id
    }

    /// From when positions may be dropped, or nil while the hunt runs.
    public var dropFrom: Date? { endedAt.map { $0.addingTimeInterval(retentionHours * 3600) } }

    /// Checks that positions may be dropped at `now`, and answers when the hunt ended.
    /// - throws: ``GameRuleViolation/huntNotEnded(_:)``, ``GameRuleViolation/positionsKept(until:)``.
    public func dropAllowed(at now: Date) throws(GameRuleViolation) -> Date {
        guard let endedAt, let from = dropFrom else { throw .huntNotEnded(hunt) }
        guard now >= from else { throw .positionsKept(until: from) }
        return endedAt
    }
}
