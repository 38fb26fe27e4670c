import Foundation
import GRDB
import GeoQR

/// Applies one event to the derived tables. The same code runs when an event is written and
/// when `ledger verify` rebuilds the state from the events, so the two can be compared; and
/// it runs for both stores, since it only says which ``ProjectionStatement``s an event makes.
enum StateProjection {
    /// Applies `event` to the tables of a SQLite ledger.
    static func apply(_ event: LedgerEvent, decoded: (any Sendable)? = nil, _ db: Database) throws {
        try db.run(try statements(for: event, decoded: decoded))
    }

    /// The changes `event` makes. `decoded` is the body as the writer built it, which saves
    /// parsing the JSON it just wrote; verification passes nil and reads the stored JSON.
    static func statements(for event: LedgerEvent, decoded: (any Sendable)? = nil) throws -> [ProjectionStatement] {
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
            // A forgotten join has no name left; the `player-forgotten` event that follows
            // gives the row its pseudonym, under the same key.
            let key = b.nameKey.isEmpty ? PlayerForgotten.nameKey(of: b.player) : b.nameKey
            // The PIN's hash is not state derived from events: it lives in `credentials`.
            return [.init("""
                INSERT INTO players (id, hunt, name, name_key, team, joined_ms, seq)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, b.player, hunt, b.name, key, b.team, time, seq)]
        case .pinChecked:
            let b = try body(PINChecked.self)
            return [.init("UPDATE players SET pin_failures = ?, locked_until_ms = ?, seq = ? WHERE id = ?",
                          b.state.failures, b.state.lockedUntil?.millisecondsSince1970, seq, b.player)]
        case .pinReset:
            let b = try body(PINReset.self)
            return [.init("UPDATE players SET pin_failures = 0, locked_until_ms = NULL, seq = ? WHERE id = ?", seq, b.player)]
        case .claimAttempted:
            let b = try body(ClaimAttempted.self)
            return [.init("""
                INSERT INTO attempts (seq, hunt, player_id, cache_id, time_ms, verdict, method, lat, lon, photo_sha256)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, seq, hunt, b.claim.player, b.claim.cache, b.claim.time.millisecondsSince1970,
                     b.verdict.rawValue, b.claim.method.rawValue, b.claim.location?.latitude,
                     b.claim.location?.longitude, b.claim.evidence.photoSHA256)]
                + claimID(b.claim, find: nil, verdict: b.verdict, event)
        case .findRecorded:
            let b = try body(FindRecorded.self)
            return find(b, event) + claimID(b.claim, find: b.find, verdict: .claimable, event)
        case .findVoided:
            let b = try body(FindVoided.self)
            return [.init("UPDATE finds SET voided = 1, void_reason = ?, seq = ? WHERE id = ?", b.reason, seq, b.find),
                    .init("DELETE FROM points WHERE find_id = ?", b.find)]
                + (b.retractedCard.map { [.init("DELETE FROM items WHERE id = ?", $0)] } ?? [])
        case .pointsAdjusted:
            let b = try body(PointsAdjusted.self)
            return [.init("""
                INSERT INTO points (seq, idx, hunt, player_id, find_id, reason, amount)
                VALUES (?, 0, ?, ?, NULL, ?, ?)
                """, seq, hunt, b.player, PointsAward.adjustmentReason + ": " + b.reason, b.amount)]
        case .hintRevealed:
            let b = try body(HintRevealed.self)
            var changes: [ProjectionStatement] = [.init("""
                INSERT INTO hints (hunt, player_id, cache_id, cost, revealed_ms, seq) VALUES (?, ?, ?, ?, ?, ?)
                """, hunt, b.player, b.cache, b.cost, time, seq)]
            if b.cost != 0 {
                changes.append(.init("""
                    INSERT INTO points (seq, idx, hunt, player_id, find_id, reason, amount)
                    VALUES (?, 0, ?, ?, NULL, ?, ?)
                    """, seq, hunt, b.player, PointsAward.hintReason(b.cache), -b.cost))
            }
            return changes
        case .courseStarted:
            let b = try body(CourseStarted.self)
            return [.init("""
                INSERT INTO course_starts (hunt, course, started_ms, seq) VALUES (?, ?, ?, ?)
                """, hunt, b.course, time, seq)]
        case .runnerDisqualified:
            let b = try body(RunnerDisqualified.self)
            return [.init("""
                INSERT INTO disqualifications (hunt, player_id, course, reason, seq) VALUES (?, ?, ?, ?, ?)
                """, hunt, b.player, b.course, b.reason, seq)]
        case .challengeAnswered:
            let b = try body(ChallengeAnswered.self)
            var changes: [ProjectionStatement] = [.init("""
                INSERT INTO challenge_answers (seq, hunt, player_id, cache_id, correct, points, answer_id, answered_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, seq, hunt, b.player, b.cache, b.correct, b.points, b.answerId, b.answeredMs ?? time)]
            if b.points != 0 {
                changes.append(.init("""
                    INSERT INTO points (seq, idx, hunt, player_id, find_id, reason, amount)
                    VALUES (?, 0, ?, ?, NULL, ?, ?)
                    """, seq, hunt, b.player, PointsAward.challengeReason(b.cache), b.points))
            }
            return changes
        case .photoSubmitted:
            let b = try body(PhotoSubmitted.self)
            return [.init("""
                INSERT INTO photo_submissions (hunt, id, player_id, cache_id, photo_sha256, submitted_ms, state, points, seq)
                VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?)
                """, hunt, b.submission, b.player, b.cache, b.photoSHA256, time, seq)]
        case .photoJudged:
            let b = try body(PhotoJudged.self)
            var changes: [ProjectionStatement] = [.init("""
                UPDATE photo_submissions SET state = ?, reason = ?, points = ?, judged_ms = ?, seq = ? WHERE hunt = ? AND id = ?
                """, b.approved ? "approved" : "rejected", b.reason, b.points, time, seq, hunt, b.submission)]
            if b.points != 0 {
                changes.append(.init("""
                    INSERT INTO points (seq, idx, hunt, player_id, find_id, reason, amount)
                    VALUES (?, 0, ?, ?, NULL, ?, ?)
                    """, seq, hunt, b.player, PointsAward.challengeReason(b.cache), b.points))
            }
            return changes
        case .huntStarted, .huntStopped:
            return [.init("""
                INSERT INTO hunt_state (hunt, running, seq) VALUES (?, ?, ?)
                ON CONFLICT (hunt) DO UPDATE SET running = excluded.running, seq = excluded.seq
                """, hunt, kind == .huntStarted, seq)]
        case .positionsDropped, .playerForgotten:
            return try PrivacyProjection.statements(kind, event, decoded: decoded)
        default:
            return try ItemProjection.statements(kind, event, decoded: decoded)
        }
    }

    /// A claim sent with an id is remembered under it (see ``ClaimOutcome/resent(_:)``).
    private static func claimID(_ claim: ClaimRecord, find: String?, verdict: Verdict,
                                _ event: LedgerEvent) -> [ProjectionStatement] {
        guard let id = claim.claimID else { return [] }
        return [.init("""
            INSERT INTO claim_ids (hunt, claim_id, player_id, find_id, verdict, seq) VALUES (?, ?, ?, ?, ?, ?)
            """, event.hunt, id, claim.player, find, verdict.rawValue, event.seq)]
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
                try db.run(claimID(b.claim, find: b.find, verdict: .claimable, event))
            } else {
                let b = try BodyCoding.decode(ClaimAttempted.self, from: event.body)
                try db.run(claimID(b.claim, find: nil, verdict: b.verdict, event))
            }
        }
    }

    private static func find(_ b: FindRecorded, _ event: LedgerEvent) -> [ProjectionStatement] {
        let c = b.claim
        var changes: [ProjectionStatement] = [.init("""
            INSERT INTO finds (id, hunt, player_id, cache_id, time_ms, lat, lon, method, photo_sha256,
                               exif_time_ms, first_to_find, seq)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, b.find, event.hunt, c.player, c.cache ?? "", c.time.millisecondsSince1970,
                 c.location?.latitude, c.location?.longitude, c.method.rawValue,
                 c.evidence.photoSHA256, c.evidence.exifTime?.millisecondsSince1970,
                 b.firstToFind, event.seq)]
        for (idx, award) in b.awards.enumerated() {
            changes.append(.init("""
                INSERT INTO points (seq, idx, hunt, player_id, find_id, reason, amount)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, event.seq, idx, event.hunt, c.player, b.find, award.reason, award.amount))
        }
        if let card = b.card {
            changes.append(.init("""
                INSERT INTO items (id, hunt, kind, cache_id, name, message, found_lat, found_lon, found_ms, owner_id, seq)
                VALUES (?, ?, 'card', ?, ?, ?, ?, ?, ?, ?, ?)
                """, card.item, event.hunt, card.cache, card.cacheName, card.message,
                     c.location?.latitude, c.location?.longitude, c.time.millisecondsSince1970,
                     c.player, event.seq))
        }
        return changes
    }
}
