import Foundation
import GeoQR

extension PostgresGameStore {
    public func join(hunt: String, name: String, pin: String, team: String?, at time: Date) async throws -> Player {
        let hunt = hunt.uppercased()
        // Fail fast on a bad or taken name, before paying for bcrypt; the write re-checks.
        let shown = try PlayerName.check(name, taken: [])
        try PINPolicy.checkFormat(pin)
        if try await player(hunt: hunt, named: shown) != nil { throw GameRuleViolation.nameTaken(shown) }
        let pinHash = try await PINHashing.hash(pin, cost: configuration.pinCost)
        return try await write { tx in
            let key = PlayerName.key(shown)
            let taken = try await tx.sql.rows("SELECT name_key FROM players WHERE hunt = ? AND name_key = ?", hunt, key)
            let checked = try PlayerName.check(shown, taken: Set(taken.map { $0["name_key"] }))
            let id = "P\(tx.nextSeq)"
            let event = try await tx.append(.playerJoined, hunt: hunt, actor: id, at: time) { seq in
                PlayerJoined(player: "P\(seq)", name: checked, nameKey: key, team: team)
            }
            try await Self.replaceCredential(tx.sql, hunt: hunt, player: id, pinHash: pinHash, seq: event.seq)
            return Player(id: id, hunt: hunt, name: checked, team: team, joined: event.time)
        }
    }

    public func signIn(hunt: String, name: String, pin: String, at time: Date) async throws -> Player {
        let hunt = hunt.uppercased()
        let policy = configuration.pinPolicy
        let found = try await read(snapshot: true) { sql -> (id: String, pinHash: String, state: PINState)? in
            guard let row = try await Self.playerRow(sql, hunt: hunt, named: name) else { return nil }
            return (id: row["id"] as String, pinHash: try await Self.pinHash(sql, of: row["id"]), state: Self.pinState(row))
        }
        guard let (id, pinHash, state) = found else { throw GameRuleViolation.unknownPlayer(name) }
        try policy.checkNotLocked(state, at: time)
        // bcrypt runs here, outside the write transaction, so it never holds up other writers.
        let correct = try await PINHashing.verify(pin, hash: pinHash)
        let result: Result<Player, GameRuleViolation> = try await write { tx in
            guard let now = try await Self.playerRow(tx.sql, hunt: hunt, named: id) else { return .failure(.unknownPlayer(name)) }
            let check = PINCheck.decide(correct: correct, player: id, state: Self.pinState(now), policy: policy, at: time)
            if let body = check.event {
                try await tx.append(.pinChecked, hunt: hunt, actor: id, at: time) { _ in body }
            }
            return check.refusal.map { .failure($0) } ?? .success(Self.player(now))
        }
        return try result.get()
    }

    public func player(hunt: String, named: String) async throws -> Player? {
        let hunt = hunt.uppercased()
        return try await read { sql in try await Self.playerRow(sql, hunt: hunt, named: named).map(Self.player) }
    }

    public func players(hunt: String) async throws -> [Player] {
        let hunt = hunt.uppercased()
        return try await read { sql in
            try await sql.rows("SELECT * FROM players WHERE hunt = ? ORDER BY joined_ms, seq", hunt).map(Self.player)
        }
    }

    public func resetPIN(hunt: String, player: String, pin: String, by actor: String, at time: Date) async throws -> Player {
        let hunt = hunt.uppercased()
        try PINPolicy.checkFormat(pin)
        guard try await self.player(hunt: hunt, named: player) != nil else { throw GameRuleViolation.unknownPlayer(player) }
        let pinHash = try await PINHashing.hash(pin, cost: configuration.pinCost)
        return try await write { tx in
            guard let row = try await Self.playerRow(tx.sql, hunt: hunt, named: player) else {
                throw GameRuleViolation.unknownPlayer(player)
            }
            let id: String = row["id"]
            let event = try await tx.append(.pinReset, hunt: hunt, actor: actor, at: time) { _ in PINReset(player: id) }
            try await Self.replaceCredential(tx.sql, hunt: hunt, player: id, pinHash: pinHash, seq: event.seq)
            // The old PIN's sessions end with it, on every server.
            try await tx.sql.execute("DELETE FROM sessions WHERE hunt = ? AND player_id = ?", hunt, id)
            return Self.player(row)
        }
    }

    /// A player's row by id (`P3`) or by name, ignoring case: a text shaped like an id
    /// (``GeoQR/PlayerName/looksLikeID(_:)``) is looked up as an id only, any other as a name
    /// only, so no name can stand for an id (a player who joined as `P160` before such names
    /// were refused signs in by their own id). Each lookup on its own index.
    static func playerRow(_ sql: PostgresSQL, hunt: String, named: String) async throws -> LedgerRow? {
        if PlayerName.looksLikeID(named) {
            return try await sql.row("SELECT * FROM players WHERE id = ? AND hunt = ?", named.uppercased(), hunt)
        }
        return try await sql.row("SELECT * FROM players WHERE hunt = ? AND name_key = ?", hunt, PlayerName.key(named))
    }

    /// The id of a player who must exist.
    static func requirePlayer(_ sql: PostgresSQL, hunt: String, _ named: String) async throws -> String {
        guard let row = try await playerRow(sql, hunt: hunt, named: named) else { throw GameRuleViolation.unknownPlayer(named) }
        return row["id"]
    }

    static func player(_ row: LedgerRow) -> Player {
        Player(id: row["id"], hunt: row["hunt"], name: row["name"], team: row["team"],
               joined: Date(millisecondsSince1970: row["joined_ms"]))
    }

    static func pinState(_ row: LedgerRow) -> PINState {
        let until: Int64? = row["locked_until_ms"]
        return PINState(failures: row["pin_failures"], lockedUntil: until.map { Date(millisecondsSince1970: $0) })
    }

    /// The player's PIN hash, from the private `credentials` table.
    static func pinHash(_ sql: PostgresSQL, of id: String) async throws -> String {
        guard let row = try await sql.row("SELECT pin_hash FROM credentials WHERE player_id = ?", id) else {
            throw LedgerError.corrupt("player \(id) has no PIN hash in the credentials table (a PIN reset gives a new one)")
        }
        return row["pin_hash"]
    }

    /// Gives a player a new PIN hash, set by event `seq`; keeps what the chain needs.
    static func replaceCredential(_ sql: PostgresSQL, hunt: String, player: String, pinHash: String, seq: Int64) async throws {
        try await sql.execute("""
            INSERT INTO credentials (hunt, player_id, pin_hash, seq) VALUES (?, ?, ?, ?)
            ON CONFLICT (player_id) DO UPDATE SET pin_hash = excluded.pin_hash, seq = excluded.seq
            """, hunt, player, pinHash, seq)
    }
}
