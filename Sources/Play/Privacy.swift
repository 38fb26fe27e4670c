import Foundation
import GeoQR
import Ledger

// Privacy: positions go once the hunt is over and its retention has passed; a player who asks
// is forgotten. Both are game-master acts, recorded as ``GeoQR/GameMaster/actor``.
extension Game {
    /// Drops every position the ledger stores for the hunt, once it has ended (stopped, or
    /// past its end) and the hunt file's `positionRetentionHours` have passed. Answers nil when
    /// nothing was left to drop: running it again records nothing.
    ///
    /// ```swift
    /// let dropped = try await game.dropPositions().value   // PositionsDropped, or nil
    /// ```
    /// - throws: ``GeoQR/GameRuleViolation/huntNotEnded(_:)``, or
    ///   ``GeoQR/GameRuleViolation/positionsKept(until:)`` before the retention has passed.
    public func dropPositions() async throws -> Outcome<PositionsDropped?> {
        let dropped = try await store.dropPositions(in: hunt, by: GameMaster.actor, at: clock())
        if dropped != nil { try await store.scrub() }
        return Outcome(dropped, effects: dropped == nil ? [] : [.positionsDropped])
    }

    /// When the hunt's positions may be dropped (``GeoQR/PositionRetention``), as the ledger
    /// and the clock say now.
    ///
    /// ```swift
    /// if let ended = try await game.positionRetention().endedAt { print("ended", ended) }
    /// ```
    public func positionRetention() async throws -> PositionRetention {
        let now = clock()
        let stoppedAt: Date? = try await running() ? nil : try await store.lastStop(hunt: huntID)
        return PositionRetention(hunt: hunt, stoppedAt: stoppedAt, now: now)
    }

    /// Forgets a player (name or id) at their request: their name becomes a pseudonym, the
    /// ledger keeps only commitments to their private data (the chain still verifies), their
    /// PIN and sessions go, and so do the photos they sent (with reports, for photo tasks) from
    /// `photoFolders`, where the server keeps them (``HuntFiles/DataDirectory/reportPhotoFolder``
    /// and ``HuntFiles/DataDirectory/taskPhotoFolder``). Their finds and points stay under the
    /// pseudonym. Forgetting them again does nothing.
    ///
    /// ```swift
    /// let forgotten = try await game.forgetPlayer("Ada", photoFolders: [data.reportPhotoFolder, data.taskPhotoFolder]).value
    /// print(forgotten.pseudonym)   // "Forgotten player 1"
    /// ```
    public func forgetPlayer(_ name: String, photoFolders: [String]) async throws -> Outcome<ForgottenPlayer> {
        let forgotten = try await store.forgetPlayer(hunt: huntID, player: name, by: GameMaster.actor, at: clock())
        for folder in photoFolders {
            for sha in forgotten.photos where sha.allSatisfy(\.isHexDigit) {
                try? FileManager.default.removeItem(atPath: "\(folder)/\(sha)")
            }
        }
        if !forgotten.alreadyForgotten { try await store.scrub() }
        await knownNames.forget()
        guard !forgotten.alreadyForgotten else { return Outcome(forgotten) }
        return Outcome(forgotten, effects: [.playerForgotten(player: forgotten.player), .standingsChanged, .cacheFlagsChanged])
    }
}
