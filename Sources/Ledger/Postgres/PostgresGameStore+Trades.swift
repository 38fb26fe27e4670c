import Foundation
import GeoQR

extension PostgresGameStore {
    public func offerTrade(hunt: String, from: String, to: String, give: [String], receive: [String],
                           at time: Date, lifetime: TimeInterval = TradeOffer.defaultLifetime) async throws -> TradeOffer {
        let hunt = hunt.uppercased()
        let give = give.map { $0.uppercased() }, receive = receive.map { $0.uppercased() }
        return try await write { tx in
            let fromID = try await Self.requirePlayer(tx.sql, hunt: hunt, from)
            let toID = try await Self.requirePlayer(tx.sql, hunt: hunt, to)
            // An offer is kept for good: a player has at most this many open at once.
            let open: Int64 = try await tx.sql.row("""
                SELECT COUNT(*) AS n FROM trades WHERE hunt = ? AND from_id = ? AND state = 'open' AND expires_ms > ?
                """, hunt, fromID, time.millisecondsSince1970)?["n"] ?? 0
            guard open < PlayerQuotas.openTradeOffers else { throw GameRuleViolation.tooManyOpenTrades(limit: PlayerQuotas.openTradeOffers) }
            let items = try await Self.holdings(tx.sql, hunt: hunt, ids: give + receive, owners: [])
            try Trading.checkOffer(from: fromID, to: toID, give: give, receive: receive,
                                   items: Dictionary(items.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }))
            let event = try await tx.append(.tradeOffered, hunt: hunt, actor: fromID, at: time) { seq in
                TradeOffered(trade: TradeOffer(id: "T\(seq)", from: fromID, to: toID, give: give, receive: receive,
                                               offeredAt: time, expiresAt: time.addingTimeInterval(lifetime)))
            }
            return try await Self.trade(tx.sql, hunt: hunt, id: "T\(event.seq)")!
        }
    }

    public func acceptTrade(hunt: String, id: String, by player: String, at time: Date) async throws -> TradeOffer {
        let hunt = hunt.uppercased(), id = id.uppercased()
        let result: Result<TradeOffer, GameRuleViolation> = try await write { tx in
            let playerID = try await Self.requirePlayer(tx.sql, hunt: hunt, player)
            guard let offer = try await Self.trade(tx.sql, hunt: hunt, id: id) else { throw GameRuleViolation.unknownTrade(id) }
            let holdings = try await Self.holdings(tx.sql, hunt: hunt, ids: offer.give + offer.receive, owners: [offer.from, offer.to])
            let moves: [ItemMove]
            do throws(GameRuleViolation) {
                moves = try Trading.checkAccept(offer, by: playerID, at: time, holdings: holdings)
            } catch {
                guard let closing = TradeAcceptFailure.closing(for: error) else { throw error }
                try await Self.close(tx, hunt: hunt, id: id, as: closing.state, reason: closing.reason, by: playerID, at: time)
                return .failure(error)
            }
            try await tx.append(.tradeAccepted, hunt: hunt, actor: playerID, at: time) { _ in
                TradeAccepted(trade: id, moves: moves)
            }
            return .success(try await Self.trade(tx.sql, hunt: hunt, id: id)!)
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
        return try await read { sql in try await Self.trade(sql, hunt: hunt, id: id) }
    }

    private func closeTrade(hunt: String, id: String, by player: String, as state: TradeState,
                            at time: Date) async throws -> TradeOffer {
        let hunt = hunt.uppercased(), id = id.uppercased()
        return try await write { tx in
            let playerID = try await Self.requirePlayer(tx.sql, hunt: hunt, player)
            guard let offer = try await Self.trade(tx.sql, hunt: hunt, id: id) else { throw GameRuleViolation.unknownTrade(id) }
            try Trading.checkClose(offer, by: playerID, as: state)
            try await Self.close(tx, hunt: hunt, id: id, as: state, reason: nil, by: playerID, at: time)
            return try await Self.trade(tx.sql, hunt: hunt, id: id)!
        }
    }

    private static func close(_ tx: PostgresTransaction, hunt: String, id: String, as state: TradeState, reason: String?,
                              by actor: String, at time: Date) async throws {
        try await tx.append(.tradeClosed, hunt: hunt, actor: actor, at: time) { _ in
            TradeClosed(trade: id, state: state, reason: reason)
        }
    }

    /// The listed items wherever they are, and every item the `owners` hold.
    static func holdings(_ sql: PostgresSQL, hunt: String, ids: [String], owners: [String]) async throws -> [ItemHolding] {
        try await sql.rows("""
            SELECT id, owner_id, kind, cache_id FROM items WHERE hunt = ?
            AND (id IN (SELECT jsonb_array_elements_text(?::jsonb)) OR owner_id IN (SELECT jsonb_array_elements_text(?::jsonb)))
            ORDER BY id
            """, hunt, try BodyCoding.encode(ids), try BodyCoding.encode(owners)).map {
            ItemHolding(id: $0["id"], owner: $0["owner_id"], cardOfCache: $0["kind"] == "card" ? $0["cache_id"] : nil)
        }
    }

    static func trade(_ sql: PostgresSQL, hunt: String, id: String) async throws -> TradeOffer? {
        guard let row = try await sql.row("SELECT * FROM trades WHERE hunt = ? AND id = ?", hunt, id) else { return nil }
        return TradeOffer(id: row["id"], from: row["from_id"], to: row["to_id"],
                          give: try BodyCoding.decode([String].self, from: row["give"]),
                          receive: try BodyCoding.decode([String].self, from: row["receive"]),
                          offeredAt: Date(millisecondsSince1970: row["offered_ms"]),
                          expiresAt: Date(millisecondsSince1970: row["expires_ms"]),
                          state: TradeState(rawValue: row["state"]) ?? .failed)
    }
}
