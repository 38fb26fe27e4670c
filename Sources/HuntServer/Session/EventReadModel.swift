import Foundation
import GeoQR
import Ledger

/// What the ledger answers only from its events: the trades each player is a party to, and
/// the trackables the game master seeded. Kept in memory by reading the events from the last
/// one read, so a request reads what is new since the one before, not the whole history
/// (which grows with every claim). Events written by another process (the `geoqr` game
/// commands) are picked up the same way.
///
/// Trades that have ended (accepted, declined, cancelled, expired, failed) never change
/// again, so they are kept here once read: a player's trade list reads only the open ones.
///
/// ```swift
/// let (ids, closed) = try await session.index.trades(of: "P3")   // ids oldest first
/// ```
actor EventReadModel {
    private let store: any GameStore
    private let hunt: String
    private var lastSeq: Int64 = 0
    private var tradesByPlayer: [String: [String]] = [:]
    private var seeded: [String] = []
    private var closed: [String: TradeOffer] = [:]

    init(store: any GameStore, hunt: String) {
        self.store = store
        self.hunt = hunt.uppercased()
    }

    /// Ids of the trades `player` offered or was offered, oldest first, and those of them
    /// that have ended, as they ended.
    func trades(of player: String) async throws -> (ids: [String], closed: [String: TradeOffer]) {
        try await catchUp()
        let ids = tradesByPlayer[player] ?? []
        var ended: [String: TradeOffer] = [:]
        for id in ids { if let trade = closed[id] { ended[id] = trade } }
        return (ids, ended)
    }

    /// Keeps trades read from the ledger that have ended.
    func keep(_ trades: [TradeOffer]) {
        for trade in trades where trade.state != .open { closed[trade.id] = trade }
    }

    /// Ids of every trackable seeded in this hunt, oldest first.
    func trackables() async throws -> [String] {
        try await catchUp()
        return seeded
    }

    private func catchUp() async throws {
        while true {
            let events = try await store.events(after: lastSeq, limit: 4096)
            // Another request may have read the same events while this one waited.
            for event in events where event.seq > lastSeq {
                lastSeq = event.seq
                guard event.hunt == hunt else { continue }
                note(event)
            }
            if events.count < 4096 { return }
        }
    }

    private func note(_ event: LedgerEvent) {
        switch try? event.decodedBody() {
        case .tradeOffered(let body)?:
            let t = body.trade
            tradesByPlayer[t.from, default: []].append(t.id)
            if t.to != t.from { tradesByPlayer[t.to, default: []].append(t.id) }
        case .trackableSeeded(let body)?:
            seeded.append(body.trackable)
        default:
            return
        }
    }
}
