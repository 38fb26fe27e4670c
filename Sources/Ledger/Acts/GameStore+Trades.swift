import Foundation
import GeoQR

extension GameStore {
    /// Offers `give` (the offerer's items) for `receive` (the other's). Open for `lifetime`.
    /// An offer is kept for good: a player has at most ``GeoQR/PlayerQuotas/openTradeOffers`` open at once.
    public func offerTrade(hunt: String, from: String, to: String, give: [String], receive: [String],
                           at time: Date, lifetime: TimeInterval = TradeOffer.defaultLifetime) async throws -> TradeOffer {
        let hunt = hunt.uppercased()
        let give = give.map { $0.uppercased() }, receive = receive.map { $0.uppercased() }
        return try await perform(LedgerAct { facts in
            let fromID = try facts.requirePlayer(hunt: hunt, from)
            let toID = try facts.requirePlayer(hunt: hunt, to)
            let open: Int = try facts.row("""
                SELECT COUNT(*) AS n FROM trades WHERE hunt = ? AND from_id = ? AND state = 'open' AND expires_ms > ?
                """, hunt, fromID, time.millisecondsSince1970)?["n"] ?? 0
            guard open < PlayerQuotas.openTradeOffers else {
                throw GameRuleViolation.tooManyOpenTrades(limit: PlayerQuotas.openTradeOffers)
            }
            let items = try facts.holdings(hunt: hunt, ids: give + receive, owners: [])
            try Trading.checkOffer(from: fromID, to: toID, give: give, receive: receive,
                                   items: Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }))
            let offered = NewEvent(.tradeOffered, hunt: hunt, actor: fromID, at: time) { seq in
                TradeOffered(trade: TradeOffer(id: "T\(seq)", from: fromID, to: toID, give: give, receive: receive,
                                               offeredAt: time, expiresAt: time.addingTimeInterval(lifetime)))
            }
            return Decision(events: [offered]) { facts, appended in try facts.trade(hunt: hunt, id: "T\(appended[0].seq)")! }
        })
    }

    /// Accepts: re-checks and moves every item at once, or fails with the reason (the trade is
    /// then closed as failed or expired).
    public func acceptTrade(hunt: String, id: String, by player: String, at time: Date) async throws -> TradeOffer {
        let hunt = hunt.uppercased(), id = id.uppercased()
        let result: Result<TradeOffer, GameRuleViolation> = try await perform(LedgerAct { facts in
            let playerID = try facts.requirePlayer(hunt: hunt, player)
            guard let offer = try facts.trade(hunt: hunt, id: id) else { throw GameRuleViolation.unknownTrade(id) }
            let holdings = try facts.holdings(hunt: hunt, ids: offer.give + offer.receive, owners: [offer.from, offer.to])
            let moves: [ItemMove]
            do throws(GameRuleViolation) {
                moves = try Trading.checkAccept(offer, by: playerID, at: time, holdings: holdings)
            } catch {
                guard let closing = TradeAcceptFailure.closing(for: error) else { throw error }
                let closed = NewEvent(.tradeClosed, hunt: hunt, actor: playerID, at: time) { _ in
                    TradeClosed(trade: id, state: closing.state, reason: closing.reason)
                }
                return Decision(events: [closed]) { _, _ in .failure(error) }
            }
            let accepted = NewEvent(.tradeAccepted, hunt: hunt, actor: playerID, at: time) { _ in
                TradeAccepted(trade: id, moves: moves)
            }
            return Decision(events: [accepted]) { facts, _ in .success(try facts.trade(hunt: hunt, id: id)!) }
        })
        return try result.get()
    }

    /// The recipient says no.
    public func declineTrade(hunt: String, id: String, by player: String, at time: Date) async throws -> TradeOffer {
        try await closeTrade(hunt: hunt, id: id, by: player, as: .declined, at: time)
    }

    /// The offerer withdraws.
    public func cancelTrade(hunt: String, id: String, by player: String, at time: Date) async throws -> TradeOffer {
        try await closeTrade(hunt: hunt, id: id, by: player, as: .cancelled, at: time)
    }

    /// A trade as it stands now.
    public func trade(hunt: String, id: String) async throws -> TradeOffer? {
        let hunt = hunt.uppercased(), id = id.uppercased()
        return try await query(LedgerRead { facts in try facts.trade(hunt: hunt, id: id) })
    }

    private func closeTrade(hunt: String, id: String, by player: String, as state: TradeState,
                            at time: Date) async throws -> TradeOffer {
        let hunt = hunt.uppercased(), id = id.uppercased()
        return try await perform(LedgerAct { facts in
            let playerID = try facts.requirePlayer(hunt: hunt, player)
            guard let offer = try facts.trade(hunt: hunt, id: id) else { throw GameRuleViolation.unknownTrade(id) }
            try Trading.checkClose(offer, by: playerID, as: state)
            let closed = NewEvent(.tradeClosed, hunt: hunt, actor: playerID, at: time) { _ in
                TradeClosed(trade: id, state: state, reason: nil)
            }
            return Decision(events: [closed]) { facts, _ in try facts.trade(hunt: hunt, id: id)! }
        })
    }
}
