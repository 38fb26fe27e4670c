import Foundation
import GeoQR

extension GameStore {
    /// Adds a player (name rules in ``GeoQR/PlayerName``; the PIN is stored as a bcrypt hash, in
    /// the private `credentials` table, never in an event).
    public func join(hunt: String, name: String, pin: String, team: String?, at time: Date) async throws -> Player {
        let hunt = hunt.uppercased()
        // Fail fast on a bad or taken name, before paying for bcrypt; the act re-checks.
        let shown = try PlayerName.check(name, taken: [])
        try PINPolicy.checkFormat(pin)
        if try await player(hunt: hunt, named: shown) != nil { throw GameRuleViolation.nameTaken(shown) }
        let pinHash = try await PINHashing.hash(pin, cost: rules.pinCost)
        return try await perform(LedgerAct { facts in
            let key = PlayerName.key(shown)
            let taken = try facts.rows("SELECT name_key FROM players WHERE hunt = ? AND name_key = ?", hunt, key)
            let checked = try PlayerName.check(shown, taken: Set(taken.map { $0["name_key"] }))
            let joined = NewEvent(.playerJoined, hunt: hunt, actorForSeq: { "P\($0)" }, at: time) { seq in
                PlayerJoined(player: "P\(seq)", name: checked, nameKey: key, team: team)
            }
            return Decision(events: [joined], privateWrites: { appended in
                [Credential.replacing(hunt: hunt, player: "P\(appended[0].seq)", pinHash: pinHash, seq: appended[0].seq)]
            }) { _, appended in
                Player(id: "P\(appended[0].seq)", hunt: hunt, name: checked, team: team, joined: appended[0].event.time)
            }
        })
    }

    /// Checks a PIN, counting wrong ones towards a lockout (``GeoQR/PINPolicy``).
    public func signIn(hunt: String, name: String, pin: String, at time: Date) async throws -> Player {
        let hunt = hunt.uppercased()
        let policy = rules.pinPolicy
        let found = try await query(LedgerRead(consistent: true) { facts -> (id: String, pinHash: String, state: PINState)? in
            // A forgotten player signs in no more.
            guard let row = try facts.playerRow(hunt: hunt, named: name),
                  !PlayerForgotten.isForgotten(nameKey: row["name_key"]) else { return nil }
            return (id: row["id"], pinHash: try facts.pinHash(of: row["id"]), state: PINState(playerRow: row))
        })
        guard let (id, pinHash, state) = found else { throw GameRuleViolation.unknownPlayer(name) }
        try policy.checkNotLocked(state, at: time)
        // bcrypt runs here, outside the write transaction, so it never holds up other writers.
        let correct = try await PINHashing.verify(pin, hash: pinHash)
        let result: Result<Player, GameRuleViolation> = try await perform(LedgerAct { facts in
            guard let now = try facts.playerRow(hunt: hunt, named: id) else { return .answer(.failure(.unknownPlayer(name))) }
            let check = PINCheck.decide(correct: correct, player: id, state: PINState(playerRow: now), policy: policy, at: time)
            let answer: Result<Player, GameRuleViolation> = check.refusal.map { .failure($0) } ?? .success(Player(row: now))
            guard let body = check.event else { return .answer(answer) }
            return Decision(events: [NewEvent(.pinChecked, hunt: hunt, actor: id, at: time) { _ in body }]) { _, _ in answer }
        })
        return try result.get()
    }

    /// The player with this name (ignoring case) or id.
    public func player(hunt: String, named: String) async throws -> Player? {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in try facts.playerRow(hunt: hunt, named: named).map(Player.init(row:)) })
    }

    /// Every player of a hunt, in joining order.
    public func players(hunt: String) async throws -> [Player] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            try facts.rows("SELECT * FROM players WHERE hunt = ? ORDER BY joined_ms, seq", hunt).map(Player.init(row:))
        })
    }

    /// The game master gives a player a new PIN (a forgotten one, a lockout to lift): their
    /// wrong-PIN count and lockout are cleared, and only the new PIN signs in from then on. The
    /// old PIN's sessions end with it, on every server.
    ///
    /// ```swift
    /// let ada = try await store.resetPIN(hunt: "DEMO", player: "Ada", pin: "8642", by: "gm", at: .now)
    /// ```
    /// - throws: ``GeoQR/GameRuleViolation/unknownPlayer(_:)``, or `pinTooShort`/`pinTooLong`.
    public func resetPIN(hunt: String, player: String, pin: String, by actor: String, at time: Date) async throws -> Player {
        let hunt = hunt.uppercased()
        // Fail fast on a bad PIN or an unknown player, before paying for bcrypt; the act re-checks.
        try PINPolicy.checkFormat(pin)
        guard try await self.player(hunt: hunt, named: player) != nil else { throw GameRuleViolation.unknownPlayer(player) }
        let pinHash = try await PINHashing.hash(pin, cost: rules.pinCost)
        return try await perform(LedgerAct { facts in
            guard let row = try facts.playerRow(hunt: hunt, named: player) else { throw GameRuleViolation.unknownPlayer(player) }
            let id: String = row["id"]
            return Decision(events: [NewEvent(.pinReset, hunt: hunt, actor: actor, at: time) { _ in PINReset(player: id) }],
                            privateWrites: { appended in
                [Credential.replacing(hunt: hunt, player: id, pinHash: pinHash, seq: appended[0].seq),
                 ProjectionStatement("DELETE FROM sessions WHERE hunt = ? AND player_id = ?", hunt, id)]
            }) { _, _ in Player(row: row) }
        })
    }
}
