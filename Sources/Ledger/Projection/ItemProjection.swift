import Foundation
import GRDB
import GeoQR

/// The part of the projection for items, trades, reports and the game master's cache acts.
enum ItemProjection {
    static func apply(_ kind: EventKind, _ event: LedgerEvent, _ db: Database) throws {
        let seq = event.seq, hunt = event.hunt, time = event.timeMs
        switch kind {
        case .trackableSeeded:
            let b = try BodyCoding.decode(TrackableSeeded.self, from: event.body)
            try db.execute(sql: """
                INSERT INTO items (id, hunt, kind, name, in_cache_id, seq) VALUES (?, ?, 'trackable', ?, ?, ?)
                """, arguments: [b.trackable, hunt, b.name, b.cache, seq])
        case .trackablePickedUp:
            let b = try BodyCoding.decode(TrackablePickedUp.self, from: event.body)
            try db.execute(sql: "UPDATE items SET owner_id = ?, in_cache_id = NULL, picked_from = ?, seq = ? WHERE id = ?",
                           arguments: [b.player, b.cache, seq, b.trackable])
            let leg = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM trips WHERE trackable_id = ?",
                                       arguments: [b.trackable]) ?? 0
            try db.execute(sql: """
                INSERT INTO trips (trackable_id, leg, player_id, from_cache, picked_ms, seq) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [b.trackable, leg + 1, b.player, b.cache, time, seq])
        case .trackableDropped:
            let b = try BodyCoding.decode(TrackableDropped.self, from: event.body)
            try db.execute(sql: "UPDATE items SET owner_id = NULL, in_cache_id = ?, picked_from = NULL, seq = ? WHERE id = ?",
                           arguments: [b.cache, seq, b.trackable])
            try db.execute(sql: """
                UPDATE trips SET to_cache = ?, dropped_ms = ?, distance_m = ?, seq = ?
                WHERE trackable_id = ? AND leg = (SELECT MAX(leg) FROM trips WHERE trackable_id = ?)
                """, arguments: [b.cache, time, b.distanceM, seq, b.trackable, b.trackable])
        case .tradeOffered:
            let t = try BodyCoding.decode(TradeOffered.self, from: event.body).trade
            try db.execute(sql: """
                INSERT INTO trades (id, hunt, from_id, to_id, give, receive, offered_ms, expires_ms, state, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [t.id, hunt, t.from, t.to, try BodyCoding.encode(t.give), try BodyCoding.encode(t.receive),
                                 t.offeredAt.millisecondsSince1970, t.expiresAt.millisecondsSince1970,
                                 t.state.rawValue, seq])
        case .tradeAccepted:
            let b = try BodyCoding.decode(TradeAccepted.self, from: event.body)
            for move in b.moves {
                try db.execute(sql: "UPDATE items SET owner_id = ?, seq = ? WHERE id = ?",
                               arguments: [move.to, seq, move.item])
            }
            try db.execute(sql: "UPDATE trades SET state = 'accepted', closed_ms = ?, seq = ? WHERE id = ?",
                           arguments: [time, seq, b.trade])
        case .tradeClosed:
            let b = try BodyCoding.decode(TradeClosed.self, from: event.body)
            try db.execute(sql: "UPDATE trades SET state = ?, reason = ?, closed_ms = ?, seq = ? WHERE id = ?",
                           arguments: [b.state.rawValue, b.reason, time, seq, b.trade])
        case .reportFiled:
            let b = try BodyCoding.decode(ReportFiled.self, from: event.body)
            try db.execute(sql: """
                INSERT INTO reports (id, hunt, cache_id, player_id, kind, text, photo_sha256, filed_ms, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [b.report, hunt, b.cache, b.player, b.kind.rawValue, b.text, b.photoSHA256, time, seq])
        case .reportResolved:
            let b = try BodyCoding.decode(ReportResolved.self, from: event.body)
            try db.execute(sql: "UPDATE reports SET resolved_ms = ?, resolution = ?, seq = ? WHERE id = ?",
                           arguments: [time, b.resolution, seq, b.report])
        case .cacheAvailability:
            let b = try BodyCoding.decode(CacheAvailability.self, from: event.body)
            try db.execute(sql: """
                INSERT INTO cache_flags (hunt, cache_id, disabled, reason, seq) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (hunt, cache_id) DO UPDATE SET disabled = excluded.disabled,
                    reason = excluded.reason, seq = excluded.seq
                """, arguments: [hunt, b.cache, b.disabled, b.reason, seq])
        case .secretRotated:
            let b = try BodyCoding.decode(SecretRotated.self, from: event.body)
            let generation = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM hunt_secrets WHERE hunt = ?",
                                              arguments: [hunt]) ?? 0
            try db.execute(sql: """
                INSERT INTO hunt_secrets (hunt, generation, fingerprint, rotated_ms, seq) VALUES (?, ?, ?, ?, ?)
                """, arguments: [hunt, generation + 1, b.fingerprint, time, seq])
        case .playerJoined, .pinChecked, .claimAttempted, .findRecorded, .findVoided, .pointsAdjusted:
            throw LedgerError.corrupt("event \(seq): \(kind.rawValue) reached the item projection")
        }
    }
}
