import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

/// Trades between players: offer, list, accept, decline, cancel. Each party hears of every
/// change over server-sent events.
struct TradeController {
    let session: ServedHunt

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
        try session.limiter.admit(.trade, client: player)
        var request = request
        let body = try await request.json(Offer.self)
        let trade = try await session.act {
            try await session.game.offerTrade(from: player, to: body.to, give: body.give, receive: body.receive ?? [], minutes: body.minutes)
        }
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

    func answer(_ request: Request, _ context: HuntRequestContext, _ answer: Game.TradeAnswer) async throws -> TradeOffer {
        let player = try await session.player(request)
        try session.limiter.admit(.trade, client: player)
        let id = try context.parameters.require("id")
        return try await session.act { try await session.game.answerTrade(id, answer, by: player) }
    }
}
