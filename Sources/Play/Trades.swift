import Foundation
import GeoQR
import Ledger

extension Game {
    /// A player offers items of theirs for items of another's (or gives them, asking nothing).
    /// `to` is a name or an id; the offer stays open for `minutes` (15 by default, within
    /// ``GeoQR/TradeOffer/lifetimeBounds``).
    ///
    /// ```swift
    /// let trade = try await game.offerTrade(from: "P1", to: "Bob", give: ["C3"], receive: ["C7"]).value
    /// ```
    public func offerTrade(from player: String, to other: String, give: [String], receive: [String],
                           minutes: Double? = nil) async throws -> Outcome<TradeOffer> {
        try await requireRunning()
        let recipient = try await self.player(named: other)
        let trade = try await store.offerTrade(hunt: huntID, from: player, to: recipient.id,
                                               give: give.map { $0.uppercased() }, receive: receive.map { $0.uppercased() },
                                               at: clock(), lifetime: TradeOffer.lifetime(minutes: minutes))
        return Outcome(trade, effects: [.tradeChanged(trade)])
    }

    /// How a party answers a trade.
    public enum TradeAnswer: String, Sendable, CaseIterable {
        /// The recipient takes it: every item moves at once, or none does.
        case accept
        /// The recipient says no.
        case decline
        /// The offerer withdraws it.
        case cancel
    }

    /// A party answers a trade. Only the two parties learn that a trade exists: anyone else
    /// gets ``GeoQR/GameRuleViolation/unknownTrade(_:)``. An acceptance whose re-check fails
    /// closes the trade; the ``Refusal`` then carries the closed trade for both parties.
    ///
    /// ```swift
    /// let done = try await game.answerTrade("T9", .accept, by: "P2").value   // state .accepted
    /// ```
    public func answerTrade(_ id: String, _ answer: TradeAnswer, by player: String) async throws -> Outcome<TradeOffer> {
        let id = id.uppercased(), now = clock()
        guard let existing = try await store.trade(hunt: huntID, id: id), existing.from == player || existing.to == player else {
            throw GameRuleViolation.unknownTrade(id)
        }
        let trade: TradeOffer
        do {
            switch answer {
            case .accept:
                try await requireRunning()
                trade = try await store.acceptTrade(hunt: huntID, id: id, by: player, at: now)
            case .decline: trade = try await store.declineTrade(hunt: huntID, id: id, by: player, at: now)
            case .cancel: trade = try await store.cancelTrade(hunt: huntID, id: id, by: player, at: now)
            }
        } catch {
            if let closed = try? await store.trade(hunt: huntID, id: id), closed.state != existing.state {
                throw Refusal(reason: error, effects: [.tradeChanged(closed)])
            }
            throw error
        }
        var effects: [Effect] = [.tradeChanged(trade)]
        if trade.state == .accepted { effects.append(.standingsChanged) }
        return Outcome(trade, effects: effects)
    }
}
