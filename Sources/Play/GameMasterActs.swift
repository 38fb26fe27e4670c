import Foundation
import GeoQR
import HuntFiles
import Ledger

/// Limits of the game master's own words.
public enum GameMasterActs {
    /// The longest broadcast: a few lines on a phone's screen.
    public static let broadcastLimit = 500
}

// The game master's acts. Each is recorded in the ledger as ``GeoQR/GameMaster/actor``,
// whether it came from `geoqr gm …` or the control room.
extension Game {
    /// Starts or stops the hunt: a stopped hunt refuses claims, trades and trackable moves.
    /// Starting a running hunt records nothing.
    ///
    /// ```swift
    /// try await game.setRunning(false)
    /// ```
    public func setRunning(_ running: Bool) async throws -> Outcome<Bool> {
        let changed = try await store.setHuntRunning(running, hunt: huntID, by: GameMaster.actor, at: clock())
        return Outcome(changed, effects: [.runningChanged(running)])
    }

    /// Disables (or re-opens) a cache (id or name): claims on a disabled cache are kept as
    /// attempts.
    ///
    /// ```swift
    /// try await game.setCacheDisabled(true, cache: "A2", reason: "code soaked")
    /// ```
    public func setCacheDisabled(_ disabled: Bool, cache: String, reason: String?) async throws -> Outcome<String> {
        let id = try hunt.cacheID(named: cache)
        let reason = reason?.trimmingCharacters(in: .whitespacesAndNewlines).nonEmpty ?? (disabled ? "disabled" : "enabled")
        try await store.setCacheDisabled(disabled, cache: id, reason: reason, in: hunt, by: GameMaster.actor, at: clock())
        return Outcome(id, effects: [.cacheFlagsChanged])
    }

    /// Voids a find: its points go, and its card if the finder still holds it.
    ///
    /// ```swift
    /// let find = try await game.voidFind("F12", reason: "same photo as P4").value
    /// ```
    public func voidFind(_ id: String, reason: String) async throws -> Outcome<Find> {
        let find = try await store.voidFind(hunt: huntID, id: id.uppercased(), reason: reason, by: GameMaster.actor, at: clock())
        return Outcome(find, effects: [.findsChanged(player: find.player), .standingsChanged])
    }

    /// Adds (or, negative, takes) points, with a reason; answers the player's standing after.
    ///
    /// ```swift
    /// let now = try await game.adjustPoints(of: "Ada", by: -5, reason: "hint used").value
    /// ```
    public func adjustPoints(of name: String, by amount: Int, reason: String) async throws -> Outcome<Standing> {
        try GameMaster.checkAdjustment(amount)
        let player = try await player(named: name)
        try await store.adjustPoints(hunt: huntID, player: player.id, amount: amount, reason: reason, by: GameMaster.actor, at: clock())
        return Outcome(try await standing(of: player), effects: [.standingsChanged])
    }

    /// Closes a report with what was done.
    ///
    /// ```swift
    /// try await game.resolveReport("R5", resolution: "new code hidden")
    /// ```
    public func resolveReport(_ id: String, resolution: String) async throws -> Outcome<Report> {
        let report = try await store.resolveReport(hunt: huntID, id: id.uppercased(), resolution: resolution,
                                                   by: GameMaster.actor, at: clock())
        return Outcome(report, effects: [.cacheFlagsChanged])
    }

    /// Gives a player a new PIN and lifts any lockout: for a player who forgot theirs, or
    /// whose PIN someone else learned. Sessions signed in with the old PIN end. The ledger
    /// records the reset, never the PIN or its hash.
    ///
    /// ```swift
    /// try await game.resetPIN(of: "Ada", to: "2468")
    /// ```
    public func resetPIN(of name: String, to pin: String) async throws -> Outcome<Player> {
        let player = try await player(named: name)
        let reset = try await store.resetPIN(hunt: huntID, player: player.id, pin: pin, by: GameMaster.actor, at: clock())
        return Outcome(reset, effects: [.credentialsReset(player: reset.id)])
    }

    /// Finds the game master should look at (``GeoQR/CheatFlags``); flags never reject anything.
    ///
    /// ```swift
    /// for flag in try await game.flags() { print(flag.find, flag.kind, flag.detail) }
    /// ```
    public func flags() async throws -> [CheatFlag] {
        try await store.flags(in: hunt)
    }

    /// A new secret for the hunt: written to the data directory only once its rotation is on
    /// record, so a failed write leaves the old secret and no event. Codes printed before then
    /// fail as forged: print them again. Answers the new secret's fingerprint.
    ///
    /// ```swift
    /// let fingerprint = try await game.rotateSecret(in: data).value
    /// ```
    public func rotateSecret(in data: DataDirectory) async throws -> Outcome<String> {
        let staged = try data.stageSecretRotation(forHunt: huntID)
        let fingerprint = SecretRotation.fingerprint(of: staged.secret)
        do {
            try await store.recordSecretRotation(hunt: huntID, fingerprint: fingerprint, by: GameMaster.actor, at: clock())
        } catch {
            staged.discard()
            throw error
        }
        try staged.install()
        return Outcome(fingerprint)
    }

    /// The text of a broadcast to every player, checked: 1 to
    /// ``GameMasterActs/broadcastLimit`` characters once trimmed.
    ///
    /// ```swift
    /// let text = try game.broadcastText("  Lunch at the fountain at noon  ")   // trimmed
    /// ```
    public func broadcastText(_ raw: String) throws(PlayError) -> String {
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...GameMasterActs.broadcastLimit).contains(text.count) else { throw .badBroadcast }
        return text
    }
}

extension String {
    /// nil for an empty string.
    var nonEmpty: String? { isEmpty ? nil : self }
}
