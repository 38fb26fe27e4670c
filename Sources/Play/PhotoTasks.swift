import Crypto
import Foundation
import GeoQR
import Ledger

/// Where a player stands with one cache's photo task, as their phone shows it.
public struct PhotoTaskStanding: Sendable, Equatable, Codable {
    public enum State: String, Sendable, Codable {
        /// No photo sent yet (or none waiting, approved or rejected).
        case none, pending, approved, rejected
    }

    public var cache: String
    public var task: String
    public var points: Int
    /// The latest photo's state; `approved` once any is approved.
    public var state: State
    /// The game master's reason for the latest rejection.
    public var reason: String?
    /// Photos the player may still send for this task.
    public var photosLeft: Int
    /// Won with it (the task's points once approved).
    public var pointsWon: Int
}

extension Game {
    /// A finder sends a photo for a cache's photo task (cache by id or name). The ledger keeps
    /// the photo's SHA-256 (the caller keeps the photo, re-encoded, in the data directory); the
    /// game master approves or rejects it (``judgePhoto(_:approve:reason:)``).
    ///
    /// ```swift
    /// let sent = try await game.submitPhoto(cache: "A1", photo: jpeg, by: "P3").value
    /// sent.state   // .pending
    /// ```
    /// - throws: `noPhotoTask`, `cacheNotFoundByPlayer`, `photoTaskDone`, `tooManyPhotos`,
    ///   ``PlayError/huntStopped``.
    public func submitPhoto(cache name: String, photo: Data, by player: String) async throws -> Outcome<PhotoSubmission> {
        let id = try hunt.cacheID(named: name)
        guard let challenge = hunt.cache(id: id)?.challenge, case .photo = challenge.kind else {
            throw GameRuleViolation.noPhotoTask(id)
        }
        try await requireRunning()
        let sent = try await store.submitPhoto(cache: id, photoSHA256: SHA256.hash(data: photo).hex, by: player, in: hunt, at: clock())
        return Outcome(sent)
    }

    /// The game master approves a waiting photo (its finder wins the task's points, once per
    /// cache) or rejects it, saying why (a rejection needs a reason; the phone shows it).
    ///
    /// ```swift
    /// try await game.judgePhoto("S12", approve: false, reason: "The plaque is not in the picture")
    /// ```
    public func judgePhoto(_ id: String, approve: Bool, reason: String) async throws -> Outcome<PhotoSubmission> {
        let judged = try await store.judgePhoto(id, approve: approve, reason: reason, in: hunt, by: GameMaster.actor, at: clock())
        return Outcome(judged, effects: judged.points != 0 ? [.standingsChanged] : [])
    }

    /// Every photo sent for the hunt's photo tasks, waiting ones first (oldest first), then the
    /// judged ones, latest first.
    public func photoTasks() async throws -> [PhotoSubmission] {
        guard hunt.caches.contains(where: { $0.challenge?.photoTask != nil }) else { return [] }
        return try await store.photoSubmissions(hunt: huntID)
    }

    /// Where `player` stands with `cache`'s photo task.
    ///
    /// - throws: `noPhotoTask`.
    public func photoTaskStanding(cache name: String, of player: String) async throws -> PhotoTaskStanding {
        let id = try hunt.cacheID(named: name)
        guard let challenge = hunt.cache(id: id)?.challenge, let task = challenge.photoTask else {
            throw GameRuleViolation.noPhotoTask(id)
        }
        let sent = try await store.photoSubmissions(hunt: huntID, player: player).filter { $0.cache == id }
            .sorted { (Int($0.id.dropFirst()) ?? 0) < (Int($1.id.dropFirst()) ?? 0) }   // in the order sent
        let approved = sent.first { $0.state == .approved }
        let latest = approved ?? sent.last
        return PhotoTaskStanding(cache: id, task: task, points: challenge.points,
                                 state: latest.map { PhotoTaskStanding.State(rawValue: $0.state.rawValue) ?? .none } ?? .none,
                                 reason: latest?.state == .rejected ? latest?.reason : nil,
                                 photosLeft: approved == nil ? max(0, PlayerQuotas.photoSubmissions - sent.count) : 0,
                                 pointsWon: sent.reduce(0) { $0 + $1.points })
    }
}
