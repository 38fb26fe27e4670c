import Foundation

/// The rules of trades: what may be offered, and the re-checks an acceptance makes before any
/// item moves. All or nothing: a trade whose re-check fails moves no item.
///
/// ```swift
/// try Trading.checkOffer(from: "P1", to: "P2", give: ["C3"], receive: [], items: holdings)
/// let moves = try Trading.checkAccept(offer, by: "P2", at: now, holdings: bothPlayersItems)
/// ```
public enum Trading {
    /// An offer names two players and at least one item; each item once, each held by its side.
    public static func checkOffer(from: String, to: String, give: [String], receive: [String],
                                  items: [String: ItemHolding]) throws(GameRuleViolation) {
        guard from != to else { throw .tradeWithSelf }
        guard !(give.isEmpty && receive.isEmpty) else { throw .tradeEmpty }
        var seen = Set<String>()
        for id in give + receive {
            guard seen.insert(id).inserted else { throw .tradeItemListedTwice(id) }
        }
        for id in give {
            guard let item = items[id] else { throw .unknownItem(id) }
            guard item.owner == from else { throw .notHolding(item: id, player: from) }
        }
        for id in receive {
            guard let item = items[id] else { throw .unknownItem(id) }
            guard item.owner == to else { throw .notHolding(item: id, player: to) }
        }
    }

    /// The moves an acceptance makes, after re-checking: the trade is open and not expired,
    /// every item is still where the offer found it, and neither player would end up with two
    /// cards of one cache. `holdings` lists every item either player holds now (and the
    /// trade's items wherever they are).
    public static func checkAccept(_ offer: TradeOffer, by player: String, at now: Date,
                                   holdings: [ItemHolding]) throws(GameRuleViolation) -> [ItemMove] {
        guard player == offer.to else { throw .notYourTrade(offer.id) }
        guard offer.state == .open else { throw .tradeNotOpen(id: offer.id, state: offer.state.rawValue) }
        guard !offer.isExpired(at: now) else { throw .tradeExpired(offer.id) }
        let byID = Dictionary(holdings.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in offer.give where byID[id]?.owner != offer.from { throw .tradeItemGone(item: id) }
        for id in offer.receive where byID[id]?.owner != offer.to { throw .tradeItemGone(item: id) }

        let moves = offer.give.map { ItemMove(item: $0, from: offer.from, to: offer.to) }
            + offer.receive.map { ItemMove(item: $0, from: offer.to, to: offer.from) }
        var after = byID
        for move in moves { after[move.item]?.owner = move.to }
        for party in [offer.to, offer.from] {
            var caches = Set<String>()
            for item in after.values.sorted(by: { $0.id < $1.id }) where item.owner == party {
                guard let cache = item.cardOfCache else { continue }
                guard caches.insert(cache).inserted else { throw .tradeDuplicateCard(player: party, cache: cache) }
            }
        }
        return moves
    }

    /// Declining is the recipient's, cancelling the offerer's; both only while the trade is open.
    public static func checkClose(_ offer: TradeOffer, by player: String,
                                  as state: TradeState) throws(GameRuleViolation) {
        let allowed = state == .declined ? offer.to : offer.from
        guard player == allowed else { throw .notYourTrade(offer.id) }
        guard offer.state == .open else { throw .tradeNotOpen(id: offer.id, state: offer.state.rawValue) }
    }
}
