import Foundation

/// An offer from one player to another: items given for items received (a gift when nothing
/// is asked for). Finds never move; only items (cards and trackables) do.
///
/// ```swift
/// let offer = TradeOffer(id: "T9", from: "P1", to: "P2", give: ["C3"], receive: ["C7"],
///                        offeredAt: now)   // expires 15 minutes later
/// ```
public struct TradeOffer: Sendable, Equatable, Codable {
    public var id: String
    public var from: String
    public var to: String
    public var give: [String]
    public var receive: [String]
    public var offeredAt: Date
    public var expiresAt: Date
    public var state: TradeState

    /// 15 minutes: long enough to walk over and talk, short enough that stale offers clear.
    public static let defaultLifetime: TimeInterval = 15 * 60
    /// The shortest and longest an offer may stay open: long enough to walk over to the other
    /// player, short enough that a forgotten offer does not hold items for days.
    public static let lifetimeBounds: ClosedRange<TimeInterval> = 60...(24 * 60 * 60)

    /// How long an offer asked to stay open for `minutes` (nil: the default) will: within
    /// ``lifetimeBounds``.
    ///
    /// ```swift
    /// TradeOffer.lifetime(minutes: nil)    // 900 (15 minutes)
    /// TradeOffer.lifetime(minutes: 0.1)    // 60
    /// TradeOffer.lifetime(minutes: 10_000) // 86400
    /// ```
    public static func lifetime(minutes: Double?) -> TimeInterval {
        guard let minutes, minutes.isFinite else { return defaultLifetime }
        return min(max(minutes * 60, lifetimeBounds.lowerBound), lifetimeBounds.upperBound)
    }

    public init(id: String, from: String, to: String, give: [String], receive: [String],
                offeredAt: Date, expiresAt: Date? = nil, state: TradeState = .open) {
        self.id = id
        self.from = from
        self.to = to
        self.give = give
        self.receive = receive
        self.offeredAt = offeredAt
        self.expiresAt = expiresAt ?? offeredAt.addingTimeInterval(Self.defaultLifetime)
        self.state = state
    }

    /// True once `now` reaches the expiry time.
    public func isExpired(at now: Date) -> Bool { now >= expiresAt }
}

/// Where a trade stands.
public enum TradeState: String, Sendable, Codable, CaseIterable {
    case open, accepted, declined, cancelled, expired
    /// Accepting failed a re-check (an item moved, a duplicate card): the trade is closed.
    case failed
}

/// An item as the trade rules see it: who holds it now, and which cache's card it is.
public struct ItemHolding: Sendable, Equatable {
    public var id: String
    /// The holder's player id; nil when the item sits in a cache (a dropped trackable).
    public var owner: String?
    /// For a card, the cache it is the card of; nil for a trackable.
    public var cardOfCache: String?

    public init(id: String, owner: String?, cardOfCache: String?) {
        self.id = id
        self.owner = owner
        self.cardOfCache = cardOfCache
    }
}

/// One item changing hands.
public struct ItemMove: Sendable, Equatable, Codable {
    public var item: String
    public var from: String
    public var to: String

    public init(item: String, from: String, to: String) {
        self.item = item
        self.from = from
        self.to = to
    }
}
