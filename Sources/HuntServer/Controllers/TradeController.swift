import Foundation
import GeoQR
import Hummingbird
import Ledger

/// Trades between players: offer, list, accept, decline, cancel. Each party hears of every
/// change over server-sent events.
struct TradeController {
    let session: HuntSession

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        group.post("trades", use: offer)
        group.get("trades", use: list)
        group.post("trades/:id/accept") { try await self.answer($0, $1, .accept) }
        group.post("trades/:id/decline") { try await self.answer($0, $1, .decline) }
        group.post("trades/:id/cancel") { try await self.answer($0, $1, .cancel) }
    }

    /// `{"to": "P4", "give": ["C7"], "receive": ["C9"]}`; `to` may be a name.
    struct Offer: Decodable {
        var to: String
        var give: [String]
        var receive: [String]?
        var minutes: Double?
    }

    @Sendable func offer(_ request: Request, context: HuntRequestContext) async throws -> EditedResponse<TradeOffer> {
        let player = try await session.player(request)
        try await session.state.requireRunning()
        var request = request
        let body = try await request.json(Offer.self)
        guard let other = try await session.store.player(hunt: session.hunt.id, named: body.to) else {
            throw GameRuleViolation.unknownPlayer(body.to)
        }
        let lifetime = min(max(body.minutes ?? 15, 1), 24 * 60) * 60
        let trade = try await session.store.offerTrade(hunt: session.hunt.id, from: player, to: other.id, give: body.give,
                                                       receive: body.receive ?? [], at: session.now(), lifetime: lifetime)
        await tell(trade, event: "trade-offer")
        return EditedResponse(status: .created, response: trade)
    }

    @Sendable func list(_ request: Request, context: HuntRequestContext) async throws -> TradeList {
        let player = try await session.player(request)
        var mine: [TradeOffer] = [], read: [TradeOffer] = []
        let (ids, closed) = try await session.index.trades(of: player)
        for id in ids {
            if let t = closed[id] {
                mine.append(t)
            } else if let t = try await session.store.trade(hunt: session.hunt.id, id: id), t.from == player || t.to == player {
                mine.append(t)
                read.append(t)
            }
        }
        await session.index.keep(read)
        return TradeList(incoming: mine.filter { $0.to == player }.reversed(), outgoing: mine.filter { $0.from == player }.reversed())
    }

    enum Answer { case accept, decline, cancel }

    func answer(_ request: Request, _ context: HuntRequestContext, _ answer: Answer) async throws -> TradeOffer {
        let player = try await session.player(request)
        let id = try context.parameters.require("id")
        let hunt = session.hunt.id, now = session.now()
        guard let existing = try await session.store.trade(hunt: hunt, id: id) else { throw GameRuleViolation.unknownTrade(id) }
        // Only the two parties learn that a trade exists.
        guard existing.from == player || existing.to == player else { throw GameRuleViolation.unknownTrade(id) }
        let trade: TradeOffer
        do {
            switch answer {
            case .accept: try await session.state.requireRunning(); trade = try await session.store.acceptTrade(hunt: hunt, id: id, by: player, at: now)
            case .decline: trade = try await session.store.declineTrade(hunt: hunt, id: id, by: player, at: now)
            case .cancel: trade = try await session.store.cancelTrade(hunt: hunt, id: id, by: player, at: now)
            }
        } catch {
            // A failed accept closes the trade: both parties hear how it ended.
            if let closed = try? await session.store.trade(hunt: hunt, id: id), closed.state != existing.state {
                await tell(closed, event: "trade-outcome")
            }
            throw error
        }
        await tell(trade, event: "trade-outcome")
        if trade.state == .accepted { await session.broadcastLeaderboard() }
        return trade
    }

    private func tell(_ trade: TradeOffer, event: String) async {
        let news = LiveEvent(name: event, value: trade)
        await session.live.send(news, to: trade.from)
        await session.live.send(news, to: trade.to)
    }
}
