import Foundation
import GRDB
import GeoQR

/// Applies one event to the derived tables. The same code runs when an event is written and
/// when `ledger verify` rebuilds the state from the events, so the two can be compared.
enum StateProjection {
    /// `decoded` is the body as the writer built it, which saves parsing the JSON it just
    /// wrote; verification passes nil and reads the stored JSON.
    static func apply(_ event: LedgerEvent, decoded: (any Sendable)? = nil, _ db: Database) throws {
        func body<T: Decodable>(_ type: T.Type) throws -> T {
            if let value = decoded as? T { return value }
            return try BodyCoding.decode(type, from: event.body)
        }
        guard let kind = EventKind(rawValue: event.kind) else {
            throw LedgerError.corrupt("event \(event.seq) has an unknown kind \"\(event.kind)\"")
        }
        let seq = event.seq, hunt = event.hunt, time = event.timeMs
        switch kind {
        case .playerJoined:
            let b = try body(PlayerJoined.self)
            // The PIN's hash is not state derived from events: it lives in `credentials`.
            try db.cached("""
                INSERT INTO players (id, hunt, name, name_key, team, joined_ms, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [b.player, hunt, b.name, b.nameKey, b.team, time, seq])
        case .pinChecked:
            let b = try body(PINChecked.self)
            try db.cached("UPDATE players SET pin_failures = ?, locked_until_ms = ?, seq = ? WHERE id = ?").execute(arguments: [b.state.failures, b.state.lockedUntil?.millisecondsSince1970, seq, b.player])
        case .pinReset:
            let b = try body(PINReset.self)
            try db.execute(literal: "UPDATE players SET pin_failures = 0, locked_until_ms = NULL, seq = \(seq) WHERE id = \(b.player)")
        case .claimAttempted:
            let b = try body(ClaimAttempted.self)
            try db.cached("""
                INSERT INTO attempts (seq, hunt, player_id, cache_id, time_ms, verdict, method, lat, lon, photo_sha256)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [seq, hunt, b.claim.player, b.claim.cache, b.claim.time.millisecondsSince1970,
                                 b.verdict.rawValue, b.claim.method.rawValue, b.claim.location?.latitude,
                                 b.claim.location?.longitude, b.claim.evidence.photoSHA256])
            try rememberClaimID(b.claim, find: nil, verdict: b.verdict, event, db)
        case .findRecorded:
            let b = try body(FindRecorded.self)
            try applyFind(b, event, db)
            try rememberClaimID(b.claim, find: b.find, verdict: .claimable, event, db)
        case .findVoided:
            let b = try body(FindVoided.self)
            try db.cached("UPDATE finds SET voided = 1, void_reason = ?, seq = ? WHERE id = ?").execute(arguments: [b.reason, seq, b.find])
            try db.cached("DELETE FROM points WHERE find_id = ?").execute(arguments: [b.find])
            if let card = b.retractedCard {
                try db.cached("DELETE FROM items WHERE id = ?").execute(arguments: [card])
            }
        case .pointsAdjusted:
            let b = try body(PointsAdjusted.self)
            try db.cached("""
                INSERT INTO points (seq, idx, hunt, player_id, find_id, reason, amount)
                VALUES (?, 0, ?, ?, NULL, ?, ?)
                """).execute(arguments: [seq, hunt, b.player, PointsAward.adjustmentReason + ": " + b.reason, b.amount])
        case .hintRevealed:
            let b = try body(HintRevealed.self)
            try db.execute(literal: """
                INSERT INTO hints (hunt, player_id, cache_id, cost, revealed_ms, seq)
                VALUES (\(hunt), \(b.player), \(b.cache), \(b.cost), \(time), \(seq))
                """)
            if b.cost != 0 {
                try db.execute(literal: """
                    INSERT INTO points (seq, idx, hunt, player_id, find_id, reason, amount)
                    VALUES (\(seq), 0, \(hunt), \(b.player), NULL, \(PointsAward.hintReason(b.cache)), \(-b.cost))
                    """)
            }
        case .huntStarted, .huntStopped:
            try db.cached("""
                INSERT INTO hunt_state (hunt, running, seq) VALUES (?, ?, ?)
                ON CONFLICT (hunt) DO UPDATE SET running = excluded.running, seq = excluded.seq
                """).execute(arguments: [hunt, kind == .huntStarted, seq])
        default:
            try ItemProjection.apply(kind, event, decoded: decoded, db)
        }
    }

    /// A claim sent with an id is remembered under it (see ``ClaimOutcome/resent(_:)``).
    private static func rememberClaimID(_ claim: ClaimRecord, find: String?, verdict: Verdict, _ event: LedgerEvent, _ db: Database) throws {
        guard let id = claim.claimID else { return }
        try db.cached("""
            INSERT INTO claim_ids (hunt, claim_id, player_id, find_id, verdict, seq) VALUES (?, ?, ?, ?, ?, ?)
            """).execute(arguments: [event.hunt, id, claim.player, find, verdict.rawValue, event.seq])
    }

    /// Fills `claim_ids` from the events already written (migration v5): none carried an id
    /// before it, so this finds nothing in a ledger of an earlier release, and is there so the
    /// migration is right whatever it meets.
    static func rebuildClaimIDs(_ db: Database) throws {
        let events = try LedgerEvent.fetchAll(db, sql: """
            SELECT * FROM events WHERE kind IN (?, ?) AND body LIKE '%"claimId"%' ORDER BY seq
            """, arguments: [EventKind.claimAttempted.rawValue, EventKind.findRecorded.rawValue])
        for event in events {
            if event.kind == EventKind.findRecorded.rawValue {
                let b = try BodyCoding.decode(FindRecorded.self, from: event.body)
                try rememberClaimID(b.claim, find: b.find, verdict: .claimable, event, db)
            } else {
                let b = try BodyCoding.decode(ClaimAttempted.self, from: event.body)
                try rememberClaimID(b.claim, find: nil, verdict: b.verdict, event, db)
            }
        }
    }

    private static func applyFind(_ b: FindRecorded, _ event: LedgerEvent, _ db: Database) throws {
        let c = b.claim
        try db.cached("""
            INSERT INTO finds (id, hunt, player_id, cache_id, time_ms, lat, lon, method, photo_sha256,
                               exif_time_ms, first_to_find, seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [b.find, event.hunt, c.player, c.cache ?? "", c.time.millisecondsSince1970,
                             c.location?.latitude, c.location?.longitude, c.method.rawValue,
                             c.evidence.photoSHA256, c.evidence.exifTime?.millisecondsSince1970,
                             b.firstToFind, event.seq])
        for (idx, award) in b.awards.enumerated() {
            try db.cached("""
                INSERT INTO points (seq, idx, hunt, player_id, find_id, reason, amount)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [event.seq, idx, event.hunt, c.player, b.find, award.reason, award.amount])
        }
        if let card = b.card {
            try db.cached("""
                INSERT INTO items (id, hunt, kind, cache_id, name, message, found_lat, found_lon, found_ms, owner_id, seq)
                VALUES (?, ?, 'card', ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [card.item, event.hunt, card.cache, card.cacheName, card.message,
                                 c.location?.latitude, c.location?.longitude, c.time.millisecondsSince1970,
                                 c.player, event.seq])
        }
    }
}
