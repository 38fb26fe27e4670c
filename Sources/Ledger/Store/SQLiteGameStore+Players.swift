import Foundation
import GRDB
import GeoQR

extension SQLiteGameStore {
    public func join(hunt: String, name: String, pin: String, team: String?, at time: Date) async throws -> Player {
        let hunt = hunt.uppercased()
        // Fail fast on a bad or taken name, before paying for bcrypt; the write re-checks.
        let shown = try PlayerName.check(name, taken: [])
        try PINPolicy.checkFormat(pin)
        if try await player(hunt: hunt, named: shown) != nil { throw GameRuleViolation.nameTaken(shown) }
        let pinHash = try await PINHashing.hash(pin, cost: configuration.pinCost)
        return try await write { db in
            let key = PlayerName.key(shown)
            let taken = try String.fetchSet(db.cached("SELECT name_key FROM players WHERE hunt = ? AND name_key = ?"),
                                            arguments: [hunt, key])
            let checked = try PlayerName.check(shown, taken: taken)
            let id = "P\(try EventAppender.nextSeq(db))"
            let event = try EventAppender.append(db, kind: .playerJoined, hunt: hunt, actor: id, at: time) { seq in
                PlayerJoined(player: "P\(seq)", name: checked, nameKey: key, team: team)
            }
            try Credential(hunt: hunt, playerID: "P\(event.seq)", pinHash: pinHash, seq: event.seq).insert(db)
            return Player(id: "P\(event.seq)", hunt: hunt, name: checked, team: team, joined: event.time)
        }
    }

    public func signIn(hunt: String, name: String, pin: String, at time: Date) async throws -> Player {
        let hunt = hunt.uppercased()
        let policy = configuration.pinPolicy
        let found = try await read { db in
            try Self.playerRow(db, hunt: hunt, named: name).map { (id: $0["id"] as String, pinHash: try Self.pinHash(db, of: $0["id"]), state: Self.pinState($0)) }
        }
        guard let (id, pinHash, state) = found else { throw GameRuleViolation.unknownPlayer(name) }
        try policy.checkNotLocked(state, at: time)
        // bcrypt runs here, outside the write transaction, so it never holds up other writers.
        let correct = try await PINHashing.verify(pin, hash: pinHash)
        let result: Result<Player, GameRuleViolation> = try await write { db in
            guard let now = try Self.playerRow(db, hunt: hunt, named: id) else { return .failure(.unknownPlayer(name)) }
            let check = PINCheck.decide(correct: correct, player: id, state: Self.pinState(now), policy: policy, at: time)
            if let body = check.event {
                try EventAppender.append(db, kind: .pinChecked, hunt: hunt, actor: id, at: time) { _ in body }
            }
            return check.refusal.map { .failure($0) } ?? .success(Self.player(now))
        }
        return try result.get()
    }

    public func player(hunt: String, named: String) async throws -> Player? {
        let hunt = hunt.uppercased()
        return try await read { db in try Self.playerRow(db, hunt: hunt, named: named).map(Self.player) }
    }

    public func players(hunt: String) async throws -> [Player] {
        let hunt = hunt.uppercased()
        return try await read { db in
            try Row.fetchAll(db.cached("SELECT * FROM players WHERE hunt = ? ORDER BY joined_ms, seq"), arguments: [hunt])
                .map(Self.player)
        }
    }

    /// A player's row by id (`P3`) or by name, ignoring case: a text shaped like an id
    /// (``GeoQR/PlayerName/looksLikeID(_:)``) is looked up as an id only, any other as a name
    /// only, so no name can stand for an id (a player who joined as `P160` before such names
    /// were refused signs in by their own id).
    static func playerRow(_ db: Database, hunt: String, named: String) throws -> Row? {
        if PlayerName.looksLikeID(named) {
            return try Row.fetchOne(db.cached("SELECT * FROM players WHERE hunt = ? AND id = ?"),
                                    arguments: [hunt, named.uppercased()])
        }
        return try Row.fetchOne(db.cached("SELECT * FROM players WHERE hunt = ? AND name_key = ?"),
                         arguments: [hunt, PlayerName.key(named)])
    }

    /// The id of a player who must exist.
    static func requirePlayer(_ db: Database, hunt: String, _ named: String) throws -> String {
        // The id alone, without the whole row: every claim asks this first.
        if let id = try db.firstRow(db.cached("SELECT id FROM players WHERE hunt = ? AND id = ?"),
                                    binding: [.text(hunt), .text(named.uppercased())], { $0.text(0) }) ?? nil {
            return id
        }
        guard let row = try playerRow(db, hunt: hunt, named: named) else { throw GameRuleViolation.unknownPlayer(named) }
        return row["id"]
    }

    static func player(_ row: Row) -> Player {
        Player(id: row["id"], hunt: row["hunt"], name: row["name"], team: row["team"],
               joined: Date(millisecondsSince1970: row["joined_ms"]))
    }

    /// The player's PIN hash, from the private `credentials` table.
    static func pinHash(_ db: Database, of id: String) throws -> String {
        guard let credential = try Credential.fetchOne(db, key: id) else {
            throw LedgerError.corrupt("player \(id) has no PIN hash in the credentials table (a PIN reset gives a new one)")
        }
        return credential.pinHash
    }

    static func pinState(_ row: Row) -> PINState {
        let until: Int64? = row["locked_until_ms"]
        return PINState(failures: row["pin_failures"], lockedUntil: until.map { Date(millisecondsSince1970: $0) })
    }
}
