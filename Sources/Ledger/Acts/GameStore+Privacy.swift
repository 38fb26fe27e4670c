import Foundation
import GeoQR

/// What forgetting a player did (``GameStore/forgetPlayer(hunt:player:by:at:)``).
///
/// ```swift
/// let forgotten = try await store.forgetPlayer(hunt: "DEMO", player: "Ada", by: GameMaster.actor, at: .now)
/// for sha in forgotten.photos { try? FileManager.default.removeItem(atPath: "\(folder)/\(sha)") }
/// ```
public struct ForgottenPlayer: Sendable, Equatable, Codable {
    public var player: String
    /// The name they are shown under from now on.
    public var pseudonym: String
    /// Events whose private part became its commitment (0 when they were forgotten before).
    public var events: Int
    /// The SHA-256 of the photos of their reports, for the caller to delete from the data
    /// directory (the ledger keeps no photo).
    public var photos: [String]
    /// True when the player had been forgotten before: nothing was done.
    public var alreadyForgotten: Bool
}

extension GameStore {
    /// Drops every position the hunt's ledger stores, once the hunt has ended and its
    /// `positionRetentionHours` have passed (``GeoQR/PositionRetention``): each claim's private
    /// part becomes its commitment in the events table, and the derived tables lose their
    /// coordinates, in one transaction with a `positions-dropped` event. Answers nil when there
    /// is nothing left to drop (then nothing is recorded), so it can run again and again.
    ///
    /// ```swift
    /// if let dropped = try await store.dropPositions(in: hunt, by: GameMaster.actor, at: .now) { print(dropped.claims) }
    /// ```
    /// - throws: ``GeoQR/GameRuleViolation/huntNotEnded(_:)``, ``GeoQR/GameRuleViolation/positionsKept(until:)``.
    public func dropPositions(in hunt: Hunt, by actor: String, at time: Date) async throws -> PositionsDropped? {
        let huntID = hunt.id
        return try await perform(LedgerAct { facts in
            let stoppedAt = try facts.huntRunning(hunt: huntID) ? nil : try facts.lastStop(hunt: huntID)
            let ended = try PositionRetention(hunt: hunt, stoppedAt: stoppedAt, now: time).dropAllowed(at: time)
            let held = try facts.sealedEvents(hunt: huntID, kinds: [.claimAttempted, .findRecorded])
            guard !held.isEmpty else { return .answer(nil) }
            let body = PositionsDropped(claims: held.count, endedMs: ended.millisecondsSince1970,
                                        retentionHours: hunt.positionRetentionHours)
            let dropped = NewEvent(.positionsDropped, hunt: huntID, actor: actor, at: time) { _ in body }
            return Decision(events: [dropped], privateWrites: { _ in held.compactMap(\.redaction) }) { _, _ in body }
        })
    }

    /// Forgets a player at their request: their name becomes a pseudonym ("Forgotten player
    /// 3") everywhere it is shown, the private parts of the events that name them (their name,
    /// where they stood, their reports' words and the answers to them) become commitments, and
    /// their PIN, sessions and wrong guesses go. Their finds and points stay, so the standings
    /// stay right, and the chain still verifies. A `player-forgotten` event, which holds no
    /// personal data, records it. Forgetting them again does nothing.
    ///
    /// ```swift
    /// let forgotten = try await store.forgetPlayer(hunt: "DEMO", player: "Ada", by: GameMaster.actor, at: .now)
    /// ```
    /// - throws: ``GeoQR/GameRuleViolation/unknownPlayer(_:)``.
    public func forgetPlayer(hunt: String, player: String, by actor: String, at time: Date) async throws -> ForgottenPlayer {
        let hunt = hunt.uppercased()
        return try await perform(LedgerAct { facts in
            guard let row = try facts.playerRow(hunt: hunt, named: player) else { throw GameRuleViolation.unknownPlayer(player) }
            let id: String = row["id"]
            if PlayerForgotten.isForgotten(nameKey: row["name_key"]) {
                return .answer(ForgottenPlayer(player: id, pseudonym: row["name"], events: 0, photos: [], alreadyForgotten: true))
            }
            let reports = try facts.rows("SELECT id, photo_sha256 FROM reports WHERE hunt = ? AND player_id = ? ORDER BY id", hunt, id)
            let reportIDs = Set(reports.map { $0["id"] as String })
            let taskPhotos = try facts.rows("SELECT photo_sha256 FROM photo_submissions WHERE hunt = ? AND player_id = ? ORDER BY id",
                                            hunt, id)
            let named = try facts.sealedEvents(hunt: hunt, kinds: [.playerJoined, .claimAttempted, .findRecorded, .reportFiled,
                                                                   .reportResolved, .photoJudged]).filter { event in
                switch try event.event.decodedBody() {
                case .reportResolved(let b): reportIDs.contains(b.report)
                case let body: body.players.contains(id)
                }
            }
            let earlier: Int64 = try facts.row("""
                SELECT CAST(COUNT(*) AS BIGINT) AS n FROM events WHERE hunt = ? AND kind = ?
                """, hunt, EventKind.playerForgotten.rawValue)?["n"] ?? 0
            let body = PlayerForgotten(player: id, pseudonym: PlayerForgotten.pseudonym(number: Int(earlier) + 1), events: named.count)
            let forgotten = NewEvent(.playerForgotten, hunt: hunt, actor: actor, at: time) { _ in body }
            return Decision(events: [forgotten], privateWrites: { _ in
                named.compactMap(\.redaction) + [
                    // A PIN hash an old join's hash covers stays for the chain; none signs in.
                    ProjectionStatement("DELETE FROM credentials WHERE player_id = ? AND chained_in_seq IS NULL", id),
                    ProjectionStatement("UPDATE credentials SET pin_hash = '' WHERE player_id = ?", id),
                    ProjectionStatement("DELETE FROM sessions WHERE hunt = ? AND player_id = ?", hunt, id),
                    ProjectionStatement("DELETE FROM guesses WHERE hunt = ? AND subject LIKE ?", hunt, "% " + id),
                ]
            }) { _, _ in
                ForgottenPlayer(player: id, pseudonym: body.pseudonym, events: named.count,
                                photos: reports.compactMap { row -> String? in row["photo_sha256"] }
                                    + taskPhotos.map { row -> String in row["photo_sha256"] },
                                alreadyForgotten: false)
            }
        })
    }
}

extension GameStore {
    /// When the game master last stopped the hunt, or nil if never.
    ///
    /// ```swift
    /// let stopped = try await store.lastStop(hunt: "DEMO")   // nil while never stopped
    /// ```
    public func lastStop(hunt: String) async throws -> Date? {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in try facts.lastStop(hunt: hunt) })
    }
}

/// A stored event whose body still holds its private part.
struct SealedEvent {
    let event: LedgerEvent

    /// The statement that replaces the private part by its commitment.
    var redaction: ProjectionStatement? {
        EventSeal.redacted(event.body).map { ProjectionStatement("UPDATE events SET body = ? WHERE seq = ?", $0, event.seq) }
    }
}

extension FactReader {
    /// When the game master last stopped the hunt, or nil if never.
    func lastStop(hunt: String) throws -> Date? {
        guard let found = try row("SELECT MAX(time_ms) AS stopped_ms FROM events WHERE hunt = ? AND kind = ?",
                                  hunt, EventKind.huntStopped.rawValue) else { return nil }
        let last: Int64? = found["stopped_ms"]
        return last.map { Date(millisecondsSince1970: $0) }
    }

    /// The hunt's events of these kinds whose bodies still hold their private part, oldest first.
    func sealedEvents(hunt: String, kinds: [EventKind]) throws -> [SealedEvent] {
        try rows("""
            SELECT * FROM events WHERE hunt = ? AND kind IN \(dialect.jsonTextList) AND body LIKE ? ORDER BY seq
            """, hunt, try BodyCoding.encode(kinds.map(\.rawValue)), "%\"private\":{%")
            .map { SealedEvent(event: LedgerEvent(row: $0)) }
            .filter { $0.redaction != nil }
    }
}
