import Foundation
import GeoQR

/// The part of the projection for items, trades, reports and the game master's cache acts.
enum ItemProjection {
    static func statements(_ kind: EventKind, _ event: LedgerEvent, decoded: (any Sendable)?) throws -> [ProjectionStatement] {
        func body<T: Decodable>(_ type: T.Type) throws -> T {
            if let value = decoded as? T { return value }
            return try BodyCoding.decode(type, from: event.body)
        }
        let seq = event.seq, hunt = event.hunt, time = event.timeMs
        switch kind {
        case .trackableSeeded:
            let b = try body(TrackableSeeded.self)
            return [.init("""
                INSERT INTO items (id, hunt, kind, name, in_cache_id, seq) VALUES (?, ?, 'trackable', ?, ?, ?)
                """, b.trackable, hunt, b.name, b.cache, seq)]
        case .trackablePickedUp:
            let b = try body(TrackablePickedUp.self)
            // The leg is counted in the statement itself, so the projection reads nothing.
            return [.init("UPDATE items SET owner_id = ?, in_cache_id = NULL, picked_from = ?, seq = ? WHERE id = ?",
                          b.player, b.cache, seq, b.trackable),
                    .init("""
                        INSERT INTO trips (trackable_id, leg, player_id, from_cache, picked_ms, seq)
                        VALUES (?, (SELECT COUNT(*) + 1 FROM trips WHERE trackable_id = ?), ?, ?, ?, ?)
                        """, b.trackable, b.trackable, b.player, b.cache, time, seq)]
        case .trackableDropped:
            let b = try body(TrackableDropped.self)
            return [.init("UPDATE items SET owner_id = NULL, in_cache_id = ?, picked_from = NULL, seq = ? WHERE id = ?",
                          b.cache, seq, b.trackable),
                    .init("""
                        UPDATE trips SET to_cache = ?, dropped_ms = ?, distance_m = ?, seq = ?
                        WHERE trackable_id = ? AND leg = (SELECT MAX(leg) FROM trips WHERE trackable_id = ?)
                        """, b.cache, time, b.distanceM, seq, b.trackable, b.trackable)]
        case .tradeOffered:
            let t = try body(TradeOffered.self).trade
            return [.init("""
                INSERT INTO trades (id, hunt, from_id, to_id, give, receive, offered_ms, expires_ms, state, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, t.id, hunt, t.from, t.to, try BodyCoding.encode(t.give), try BodyCoding.encode(t.receive),
                     t.offeredAt.millisecondsSince1970, t.expiresAt.millisecondsSince1970, t.state.rawValue, seq)]
        case .tradeAccepted:
            let b = try body(TradeAccepted.self)
            // Every moved item leaves its owner before any arrives: a swap of two cards of one
            // cache would otherwise hold two of them in one hand between the two updates, which
            // the one-card-per-cache index refuses (in both databases, row by row).
            let leave: [ProjectionStatement] = b.moves.count < 2 ? []
                : b.moves.map { .init("UPDATE items SET owner_id = NULL WHERE id = ?", $0.item) }
            return leave + b.moves.map { .init("UPDATE items SET owner_id = ?, seq = ? WHERE id = ?", $0.to, seq, $0.item) }
                + [.init("UPDATE trades SET state = 'accepted', closed_ms = ?, seq = ? WHERE id = ?", time, seq, b.trade)]
        case .tradeClosed:
            let b = try body(TradeClosed.self)
            return [.init("UPDATE trades SET state = ?, reason = ?, closed_ms = ?, seq = ? WHERE id = ?",
                          b.state.rawValue, b.reason, time, seq, b.trade)]
        case .reportFiled:
            let b = try body(ReportFiled.self)
            return [.init("""
                INSERT INTO reports (id, hunt, cache_id, player_id, kind, text, photo_sha256, filed_ms, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, b.report, hunt, b.cache, b.player, b.kind.rawValue, b.text, b.photoSHA256, time, seq)]
        case .reportResolved:
            let b = try body(ReportResolved.self)
            return [.init("UPDATE reports SET resolved_ms = ?, resolution = ?, seq = ? WHERE id = ?",
                          time, b.resolution, seq, b.report)]
        case .cacheAvailability:
            let b = try body(CacheAvailability.self)
            return [.init("""
                INSERT INTO cache_flags (hunt, cache_id, disabled, reason, seq) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (hunt, cache_id) DO UPDATE SET disabled = excluded.disabled,
                    reason = excluded.reason, seq = excluded.seq
                """, hunt, b.cache, b.disabled, b.reason, seq)]
        case .secretRotated:
            let b = try body(SecretRotated.self)
            return [.init("""
                INSERT INTO hunt_secrets (hunt, generation, fingerprint, rotated_ms, seq)
                VALUES (?, (SELECT COUNT(*) + 1 FROM hunt_secrets WHERE hunt = ?), ?, ?, ?)
                """, hunt, hunt, b.fingerprint, time, seq)]
        case .playerJoined, .pinChecked, .pinReset, .claimAttempted, .findRecorded, .findVoided, .pointsAdjusted,
             .huntStarted, .huntStopped, .hintRevealed, .courseStarted, .runnerDisqualified, .challengeAnswered,
             .photoSubmitted, .photoJudged, .positionsDropped, .playerForgotten:
            throw LedgerError.corrupt("event \(seq): \(kind.rawValue) reached the item projection")
        }
    }
}
