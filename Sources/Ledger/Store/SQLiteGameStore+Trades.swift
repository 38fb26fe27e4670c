import Foundation
import GRDB
import GeoQR

extension SQLiteGameStore {
    public func offerTrade(hunt: String, from: String, to: String, give: [String], receive: [String],
                           at time: Date, lifetime: TimeInterval = TradeOffer.defaultLifetime) async throws -> TradeOffer {
        let hunt = hunt.uppercased()
        let give = give.map { $0.uppercased() }, receive = receive.map { $0.uppercased() }
        return try await write { db in
            let fromID = try Self.requirePlayer(db, hunt: hunt, from)
            let toID = try Self.requirePlayer(db, hunt: hunt, to)
            // An offer is kept for good: a player has at most this many open at once.
            let open = try Int.fetchOne(db.cached("""
                SELECT COUNT(*) FROM trades WHERE hunt = ? AND from_id = ? AND state = 'open' AND expires_ms > ?
                """), arguments: [hunt, fromID, time.millisecondsSince1970]) ?? 0
            guard open < PlayerQuotas.openTradeOffers else { throw GameRuleViolation.tooManyOpenTrades(limit: PlayerQuotas.openTradeOffers) }
            let items = try Self.holdings(db, hunt: hunt, ids: give + receive, owners: [])
            try Trading.checkOffer(from: fromID, to: toID, give: give, receive: receive,
                                   items: Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }))
            let event = try EventAppender.append(db, kind: .tradeOffered, hunt: hunt, actor: fromID, at: time) { seq in
                TradeOffered(trade: TradeOffer(id: "T\(seq)", from: fromID, to: toID, give: give, receive: receive,
                                               offeredAt: time, expiresAt: time.addingTimeInterval(lifetime)))
            }
            return try Self.trade(db, hunt: hunt, id: "T\(event.seq)")!
        }
    }

    public func acceptTrade(hunt: String, id: String, by player: String, at time: Date) async throws -> TradeOffer {
        let hunt = hunt.uppercased(), id = id.uppercased()
        let result: Result<TradeOffer, GameRuleViolation> = try await write { db in
            let playerID = try Self.requirePlayer(db, hunt: hunt, player)
            guard let offer = try Self.trade(db, hunt: hunt, id: id) else { throw GameRuleViolation.unknownTrade(id) }
            let holdings = try Self.holdings(db, hunt: hunt, ids: offer.give + offer.receive, owners: [offer.from, offer.to])
            let moves: [ItemMove]
            do throws(GameRuleViolation) {
                moves = try Trading.checkAccept(offer, by: playerID, at: time, holdings: holdings)
            } catch {
                guard let closing = TradeAcceptFailure.closing(for: error) else { throw error }
                try Self.close(db, hunt: hunt, id: id, as: closing.state, reason: closing.reason, by: playerID, at: time)
                return .failure(error)
            }
            try EventAppender.append(db, kind: .tradeAccepted, hunt: hunt, actor: playerID, at: time) { _ in
                TradeAccepted(trade: id, moves: moves)
            }
            return .success(try Self.trade(db, hunt: hunt, id: id)!)
        }
        return try result.get()
    }

    public func declineTrade(hunt: String, id: String, by player: String, at time: Date) async throws -> TradeOffer {
        try await closeTrade(hunt: hunt, id: id, by: player, as: .declined, at: time)
    }

    public func cancelTrade(hunt: String, id: String, by player: String, at time: Date) async throws -> TradeOffer {
        try await closeTrade(hunt: hunt, id: id, by: player, as: .cancelled, at: time)
    }

    public func trade(hunt: String, id: String) async throws -> TradeOffer? {
        let hunt = hunt.uppercased(), id = id.uppercased()
        return try await read { db in try Self.trade(db, hunt: hunt, id: id) }
    }

    private func closeTrade(hunt: String, id: String, by player: String, as state: TradeState,
                            at time: Date) async throws -> TradeOffer {
        let hunt = hunt.uppercased(), id = id.uppercased()
        return try await write { db in
            let playerID = try Self.requirePlayer(db, hunt: hunt, player)
            guard let offer = try Self.trade(db, hunt: hunt, id: id) else { throw GameRuleViolation.unknownTrade(id) }
            try Trading.checkClose(offer, by: playerID, as: state)
            try Self.close(db, hunt: hunt, id: id, as: state, reason: nil, by: playerID, at: time)
            return try Self.trade(db, hunt: hunt, id: id)!
        }
    }

    private static func close(_ db: Database, hunt: String, id: String, as state: TradeState, reason: String?,
                              by actor: String, at time: Date) throws {
        try EventAppender.append(db, kind: .tradeClosed, hunt: hunt, actor: actor, at: time) { _ in
            TradeClosed(trade: id, state: state, reason: reason)
        }
    }

    /// The listed items wherever they are, and every item the `owners` hold.
    static func holdings(_ db: Database, hunt: String, ids: [String], owners: [String]) throws -> [ItemHolding] {
        let rows = try Row.fetchAll(db.cached("""
            SELECT id, owner_id, kind, cache_id FROM items WHERE hunt = ?
            AND (id IN (SELECT value FROM json_each(?)) OR owner_id IN (SELECT value FROM json_each(?)))
            """), arguments: [hunt, try BodyCoding.encode(ids), try BodyCoding.encode(owners)])
        return rows.map {
            ItemHolding(id: $0["id"], owner: $0["owner_id"], cardOfCache: $0["kind"] == "card" ? $0["cache_id"] : nil)
        }
    }

    static func trade(_ db: Database, hunt: String, id: String) throws -> TradeOffer? {
        guard let row = try Row.fetchOne(db.cached("SELECT * FROM trades WHERE hunt = ? AND id = ?"), arguments: [hunt, id]) else {
            return nil
        }
        return TradeOffer(id: row["id"], from: row["from_id"], to: row["to_id"],
                          give: try BodyCoding.decode([String].self, from: row["give"]),
                          receive: try BodyCoding.decode([String].self, from: row["receive"]),
                          offeredAt: Date(millisecondsSince1970: row["offered_ms"]),
                          expiresAt: Date(millisecondsSince1970: row["expires_ms"]),
                          state: TradeState(rawValue: row["state"]) ?? .failed)
    }
}
