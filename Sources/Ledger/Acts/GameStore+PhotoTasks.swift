import Foundation
import GeoQR

/// A photo sent for a station's photo task, and what the game master made of it.
///
/// ```swift
/// let sent = try await store.submitPhoto(cache: "A1", photoSHA256: sha, by: "P3", in: hunt, at: now)
/// sent.state   // .pending
/// ```
public struct PhotoSubmission: Sendable, Equatable, Codable {
    public enum State: String, Sendable, Codable {
        case pending, approved, rejected
    }

    /// `S` and the sequence number of the event that recorded it.
    public var id: String
    public var player: String
    public var cache: String
    public var photoSHA256: String
    public var submitted: Date
    public var state: State
    /// Why the game master rejected it (or what they said approving it).
    public var reason: String?
    /// Won on approval.
    public var points: Int
    public var judged: Date?
}

extension GameStore {
    /// Records a finder's photo for `cache`'s photo task (the photo's SHA-256; the photo is kept
    /// by the caller). A player sends at most ``GeoQR/PlayerQuotas/photoSubmissions`` photos
    /// for one task, and none once one is approved.
    ///
    /// - throws: `noPhotoTask`, `cacheNotFoundByPlayer` (no live find of the cache),
    ///   `photoTaskDone`, `tooManyPhotos`, `unknownPlayer`.
    public func submitPhoto(cache: String, photoSHA256: String, by player: String, in hunt: Hunt,
                            at time: Date) async throws -> PhotoSubmission {
        guard let site = hunt.cache(id: cache), let challenge = site.challenge, case .photo = challenge.kind else {
            throw GameRuleViolation.noPhotoTask(cache)
        }
        let huntID = hunt.id
        return try await perform(LedgerAct { facts in
            let playerID = try facts.requireFinder(hunt: huntID, player, of: site.id)
            let sent = try facts.photoSubmissions(hunt: huntID, player: playerID, cache: site.id)
            guard !sent.contains(where: { $0.state == .approved }) else { throw GameRuleViolation.photoTaskDone(site.id) }
            guard sent.count < PlayerQuotas.photoSubmissions else {
                throw GameRuleViolation.tooManyPhotos(cache: site.id, limit: PlayerQuotas.photoSubmissions)
            }
            let submitted = NewEvent(.photoSubmitted, hunt: huntID, actor: playerID, at: time) { seq in
                PhotoSubmitted(submission: "S\(seq)", player: playerID, cache: site.id, photoSHA256: photoSHA256)
            }
            return Decision(events: [submitted]) { facts, appended in
                try facts.photoSubmission(hunt: huntID, id: "S\(appended[0].seq)")!
            }
        })
    }

    /// The game master approves a waiting photo (its finder wins the task's points, once per
    /// player and cache) or rejects it with a reason (``GeoQR/Reports/checkReason(_:)``).
    ///
    /// - throws: `unknownSubmission`, `submissionAlreadyJudged`, `reasonMissing` (a rejection
    ///   without one), `textTooLong`.
    public func judgePhoto(_ id: String, approve: Bool, reason: String, in hunt: Hunt, by actor: String,
                           at time: Date) async throws -> PhotoSubmission {
        let huntID = hunt.id, id = id.uppercased()
        let reason = approve && reason.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "" : try Reports.checkReason(reason)
        return try await perform(LedgerAct { facts in
            guard let sent = try facts.photoSubmission(hunt: huntID, id: id) else { throw GameRuleViolation.unknownSubmission(id) }
            guard sent.state == .pending else { throw GameRuleViolation.submissionAlreadyJudged(id) }
            let done = try facts.photoSubmissions(hunt: huntID, player: sent.player, cache: sent.cache).contains { $0.state == .approved }
            let points = approve && !done ? hunt.cache(id: sent.cache)?.challenge?.points ?? 0 : 0
            let judged = NewEvent(.photoJudged, hunt: huntID, actor: actor, at: time) { _ in
                PhotoJudged(submission: id, player: sent.player, cache: sent.cache, approved: approve, points: points, reason: reason)
            }
            return Decision(events: [judged]) { facts, _ in try facts.photoSubmission(hunt: huntID, id: id)! }
        })
    }

    /// Every photo sent in the hunt (or by one player), waiting ones first, then the latest judged.
    public func photoSubmissions(hunt: String, player: String? = nil) async throws -> [PhotoSubmission] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            let rows = if let player {
                try facts.rows("SELECT * FROM photo_submissions WHERE hunt = ? AND player_id = ? ORDER BY submitted_ms, LENGTH(id), id",
                               hunt, try facts.requirePlayer(hunt: hunt, player))
            } else {
                try facts.rows("SELECT * FROM photo_submissions WHERE hunt = ? ORDER BY submitted_ms, LENGTH(id), id", hunt)
            }
            let all = rows.map(PhotoSubmission.init(row:))
            return all.filter { $0.state == .pending } + all.filter { $0.state != .pending }.reversed()
        })
    }
}

extension FactReader {
    func photoSubmission(hunt: String, id: String) throws -> PhotoSubmission? {
        try row("SELECT * FROM photo_submissions WHERE hunt = ? AND id = ?", hunt, id).map(PhotoSubmission.init(row:))
    }

    func photoSubmissions(hunt: String, player: String, cache: String) throws -> [PhotoSubmission] {
        try rows("SELECT * FROM photo_submissions WHERE hunt = ? AND player_id = ? AND cache_id = ? ORDER BY submitted_ms, LENGTH(id), id",
                 hunt, player, cache).map(PhotoSubmission.init(row:))
    }
}

extension PhotoSubmission {
    init(row: LedgerRow) {
        let judged: Int64? = row["judged_ms"]
        self.init(id: row["id"], player: row["player_id"], cache: row["cache_id"], photoSHA256: row["photo_sha256"],
                  submitted: Date(millisecondsSince1970: row["submitted_ms"]),
                  state: State(rawValue: row["state"]) ?? .pending, reason: row["reason"], points: row["points"],
                  judged: judged.map { Date(millisecondsSince1970: $0) })
    }
}
