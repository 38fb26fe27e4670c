import Foundation
import GRDB
import GeoQR

/// The part of the projection for items, trades, reports and the game master's cache acts.
enum ItemProjection {
    static func apply(_ kind: EventKind, _ event: LedgerEvent, decoded: (any Sendable)?, _ db: Database) throws {
        func body<T: Decodable>(_ type: T.Type) throws -> T {
            if let value = decoded as? T { return value }
            return try BodyCoding.decode(type, from: event.body)
        }
        let seq = event.seq, hunt = event.hunt, time = event.timeMs
        switch kind {
        case .trackableSeeded:
            let b = try body(TrackableSeeded.self)
            try db.cached("""
                INSERT INTO items (id, hunt, kind, name, in_cache_id, seq) VALUES (?, ?, 'trackable', ?, ?, ?)
                """).execute(arguments: [b.trackable, hunt, b.name, b.cache, seq])
        case .trackablePickedUp:
            let b = try body(TrackablePickedUp.self)
            try db.cached("UPDATE items SET owner_id = ?, in_cache_id = NULL, picked_from = ?, seq = ? WHERE id = ?").execute(arguments: [b.player, b.cache, seq, b.trackable])
            let leg = try Int.fetchOne(db.cached("SELECT COUNT(*) FROM trips WHERE trackable_id = ?"),
                                       arguments: [b.trackable]) ?? 0
            try db.cached("""
                INSERT INTO trips (trackable_id, leg, player_id, from_cache, picked_ms, seq) VALUES (?, ?, ?, ?, ?, ?)
                """).execute(arguments: [b.trackable, leg + 1, b.player, b.cache, time, seq])
        case .trackableDropped:
            let b = try body(TrackableDropped.self)
            try db.cached("UPDATE items SET owner_id = NULL, in_cache_id = ?, picked_from = NULL, seq = ? WHERE id = ?").execute(arguments: [b.cache, seq, b.trackable])
            try db.cached("""
                UPDATE trips SET to_cache = ?, dropped_ms = ?, distance_m = ?, seq = ?
                WHERE trackable_id = ? AND leg = (SELECT MAX(leg) FROM trips WHERE trackable_id = ?)
                """).execute(arguments: [b.cache, time, b.distanceM, seq, b.trackable, b.trackable])
        case .tradeOffered:
            let t = try body(TradeOffered.self).trade
            try db.cached("""
                INSERT INTO trades (id, hunt, from_id, to_id, give, receive, offered_ms, expires_ms, state, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [t.id, hunt, t.from, t.to, try BodyCoding.encode(t.give), try BodyCoding.encode(t.receive),
                                 t.offeredAt.millisecondsSince1970, t.expiresAt.millisecondsSince1970,
                                 t.state.rawValue, seq])
        case .tradeAccepted:
            let b = try body(TradeAccepted.self)
            for move in b.moves {
                try db.cached("UPDATE items SET owner_id = ?, seq = ? WHERE id = ?").execute(arguments: [move.to, seq, move.item])
            }
            try db.cached("UPDATE trades SET state = 'accepted', closed_ms = ?, seq = ? WHERE id = ?").execute(arguments: [time, seq, b.trade])
        case .tradeClosed:
            let b = try body(TradeClosed.self)
            try db.cached("UPDATE trades SET state = ?, reason = ?, closed_ms = ?, seq = ? WHERE id = ?").execute(arguments: [b.state.rawValue, b.reason, time, seq, b.trade])
        case .reportFiled:
            let b = try body(ReportFiled.self)
            try db.cached("""
                INSERT INTO reports (id, hunt, cache_id, player_id, kind, text, photo_sha256, filed_ms, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [b.report, hunt, b.cache, b.player, b.kind.rawValue, b.text, b.photoSHA256, time, seq])
        case .reportResolved:
            let b = try body(ReportResolved.self)
            try db.cached("UPDATE reports SET resolved_ms = ?, resolution = ?, seq = ? WHERE id = ?").execute(arguments: [time, b.resolution, seq, b.report])
        case .cacheAvailability:
            let b = try body(CacheAvailability.self)
            try db.cached("""
                INSERT INTO cache_flags (hunt, cache_id, disabled, reason, seq) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (hunt, cache_id) DO UPDATE SET disabled = excluded.disabled,
                    reason = excluded.reason, seq = excluded.seq
                """).execute(arguments: [hunt, b.cache, b.disabled, b.reason, seq])
        case .secretRotated:
            let b = try body(SecretRotated.self)
            let generation = try Int.fetchOne(db.cached("SELECT COUNT(*) FROM hunt_secrets WHERE hunt = ?"),
                                              arguments: [hunt]) ?? 0
            try db.cached("""
                INSERT INTO hunt_secrets (hunt, generation, fingerprint, rotated_ms, seq) VALUES (?, ?, ?, ?, ?)
                """).execute(arguments: [hunt, generation + 1, b.fingerprint, time, seq])
        case .playerJoined, .pinChecked, .pinReset, .claimAttempted, .findRecorded, .findVoided, .pointsAdjusted,
             .huntStarted, .huntStopped, .hintRevealed:
            throw LedgerError.corrupt("event \(seq): \(kind.rawValue) reached the item projection")
        }
    }
}
