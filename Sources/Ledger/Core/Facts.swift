import Foundation
import GeoQR

/// The facts acts and reads ask for most, each one query text both stores run.
extension FactReader {
    /// A player's row by id (`P3`) or by name, ignoring case: a text shaped like an id
    /// (``GeoQR/PlayerName/looksLikeID(_:)``) is looked up as an id only, any other as a name
    /// only, so no name can stand for an id (a player who joined as `P160` before such names
    /// were refused signs in by their own id). Each lookup on its own index.
    func playerRow(hunt: String, named: String) throws -> LedgerRow? {
        if PlayerName.looksLikeID(named) {
            return try row("SELECT * FROM players WHERE id = ? AND hunt = ?", named.uppercased(), hunt)
        }
        return try row("SELECT * FROM players WHERE hunt = ? AND name_key = ?", hunt, PlayerName.key(named))
    }

    /// The id of a player who must exist.
    func requirePlayer(hunt: String, _ named: String) throws -> String {
        guard let row = try playerRow(hunt: hunt, named: named) else { throw GameRuleViolation.unknownPlayer(named) }
        return row["id"]
    }

    /// The id of `named`, a player with a live find of `cache`: who may answer the cache's
    /// question or send a photo for its task.
    /// - throws: `unknownPlayer`, `cacheNotFoundByPlayer`.
    func requireFinder(hunt: String, _ named: String, of cache: String) throws -> String {
        let player = try requirePlayer(hunt: hunt, named)
        guard try liveFindID(hunt: hunt, player: player, cache: cache) != nil else {
            throw GameRuleViolation.cacheNotFoundByPlayer(cache: cache, player: player)
        }
        return player
    }

    /// The player's PIN hash, from the private `credentials` table.
    func pinHash(of id: String) throws -> String {
        guard let row = try row("SELECT pin_hash FROM credentials WHERE player_id = ?", id) else {
            throw LedgerError.corrupt("player \(id) has no PIN hash in the credentials table (a PIN reset gives a new one)")
        }
        return row["pin_hash"]
    }

    func find(id: String) throws -> Find? {
        try row("SELECT * FROM finds WHERE id = ?", id).map(Find.init(row:))
    }

    func liveFindID(hunt: String, player: String, cache: String) throws -> String? {
        try row("SELECT id FROM finds WHERE hunt = ? AND player_id = ? AND cache_id = ? AND voided = 0",
                hunt, player, cache)?["id"]
    }

    /// What a claim this player sent before under this id came to, or nil for a first sending.
    /// Ids are the player's own: the same id from another player is a claim of theirs.
    func earlierSending(hunt: String, player: String, claimID: String) throws -> ClaimOutcome? {
        guard let row = try row("SELECT find_id, verdict FROM claim_ids WHERE hunt = ? AND player_id = ? AND claim_id = ?",
                                hunt, player, claimID) else { return nil }
        guard let findID: String = row["find_id"], let find = try find(id: findID) else {
            return .attempt(verdict: Verdict(rawValue: row["verdict"]) ?? .noCode)
        }
        let points: Int = try self.row("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS points FROM points WHERE find_id = ?",
                                       findID)!["points"]
        let card: String? = try self.row("SELECT id FROM items WHERE id = ?", "C" + findID.dropFirst())?["id"]
        return .found(find, points: points, card: card)
    }

    func trade(hunt: String, id: String) throws -> TradeOffer? {
        try row("SELECT * FROM trades WHERE hunt = ? AND id = ?", hunt, id).map(TradeOffer.init(row:))
    }

    /// The listed items wherever they are, and every item the `owners` hold.
    func holdings(hunt: String, ids: [String], owners: [String]) throws -> [ItemHolding] {
        try rows("""
            SELECT id, owner_id, kind, cache_id FROM items WHERE hunt = ?
            AND (id IN \(dialect.jsonTextList) OR owner_id IN \(dialect.jsonTextList)) ORDER BY id
            """, hunt, try BodyCoding.encode(ids), try BodyCoding.encode(owners)).map {
            ItemHolding(id: $0["id"], owner: $0["owner_id"], cardOfCache: $0["kind"] == "card" ? $0["cache_id"] : nil)
        }
    }

    /// A trackable's item row, which must be one.
    func trackableRow(hunt: String, id: String) throws -> LedgerRow {
        guard let row = try row("SELECT * FROM items WHERE hunt = ? AND id = ?", hunt, id) else {
            throw GameRuleViolation.unknownItem(id)
        }
        guard row["kind"] == "trackable" else { throw GameRuleViolation.notATrackable(id) }
        return row
    }

    func trackable(hunt: String, id: String) throws -> Trackable? {
        guard let row = try row("SELECT * FROM items WHERE hunt = ? AND id = ? AND kind = 'trackable'", hunt, id) else {
            return nil
        }
        let trips = try rows("SELECT * FROM trips WHERE trackable_id = ? ORDER BY leg", id).map(Trip.init(row:))
        return Trackable(row: row, trips: trips)
    }

    func report(hunt: String, id: String) throws -> Report? {
        try row("SELECT * FROM reports WHERE hunt = ? AND id = ?", hunt, id).map(Report.init(row:))
    }

    func hint(hunt: String, player: String, cache: String) throws -> HintReveal? {
        try row("SELECT * FROM hints WHERE hunt = ? AND player_id = ? AND cache_id = ?", hunt, player, cache)
            .map(HintReveal.init(row:))
    }

    /// Whether the hunt is running: it is until the game master first stops it.
    func huntRunning(hunt: String) throws -> Bool {
        try row("SELECT running FROM hunt_state WHERE hunt = ?", hunt)?["running"] ?? true
    }

    /// Wrong guesses counted against `subject` (none yet: zero).
    func guessState(hunt: String, subject: String) throws -> PINState {
        guard let row = try row("SELECT failures, locked_until_ms FROM guesses WHERE hunt = ? AND subject = ?",
                                hunt, subject) else { return PINState() }
        let until: Int64? = row["locked_until_ms"]
        return PINState(failures: row["failures"], lockedUntil: until.map { Date(millisecondsSince1970: $0) })
    }
}

// The models as the derived tables hold them, one mapping for both stores.

extension Player {
    init(row: LedgerRow) {
        self.init(id: row["id"], hunt: row["hunt"], name: row["name"], team: row["team"],
                  joined: Date(millisecondsSince1970: row["joined_ms"]))
    }
}

extension PINState {
    /// A player's wrong-PIN count and lockout, from their `players` row.
    init(playerRow row: LedgerRow) {
        let until: Int64? = row["locked_until_ms"]
        self.init(failures: row["pin_failures"], lockedUntil: until.map { Date(millisecondsSince1970: $0) })
    }
}

extension Find {
    init(row: LedgerRow) {
        let lat: Double? = row["lat"], lon: Double? = row["lon"]
        self.init(id: row["id"], hunt: row["hunt"], player: row["player_id"], cache: row["cache_id"],
                  time: Date(millisecondsSince1970: row["time_ms"]),
                  location: lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } },
                  method: ClaimMethod(rawValue: row["method"]) ?? .gameMaster, photoSHA256: row["photo_sha256"],
                  firstToFind: row["first_to_find"], voidReason: row["void_reason"])
    }
}

extension TradeOffer {
    init(row: LedgerRow) throws {
        self.init(id: row["id"], from: row["from_id"], to: row["to_id"],
                  give: try BodyCoding.decode([String].self, from: row["give"]),
                  receive: try BodyCoding.decode([String].self, from: row["receive"]),
                  offeredAt: Date(millisecondsSince1970: row["offered_ms"]),
                  expiresAt: Date(millisecondsSince1970: row["expires_ms"]),
                  state: TradeState(rawValue: row["state"]) ?? .failed)
    }
}

extension Trip {
    init(row: LedgerRow) {
        let dropped: Int64? = row["dropped_ms"]
        self.init(leg: row["leg"], player: row["player_id"], from: row["from_cache"], to: row["to_cache"],
                  pickedUp: Date(millisecondsSince1970: row["picked_ms"]),
                  dropped: dropped.map { Date(millisecondsSince1970: $0) }, distance: row["distance_m"])
    }
}

extension Trackable {
    init(row: LedgerRow, trips: [Trip]) {
        self.init(id: row["id"], name: row["name"], holder: row["owner_id"], cache: row["in_cache_id"], trips: trips)
    }
}

extension Report {
    init(row: LedgerRow) {
        self.init(id: row["id"], cache: row["cache_id"], player: row["player_id"],
                  kind: ReportKind(rawValue: row["kind"]) ?? .damaged, text: row["text"],
                  photoSHA256: row["photo_sha256"], filed: Date(millisecondsSince1970: row["filed_ms"]),
                  resolution: row["resolution"])
    }
}

extension HintReveal {
    init(row: LedgerRow) {
        self.init(player: row["player_id"], cache: row["cache_id"], cost: row["cost"],
                  time: Date(millisecondsSince1970: row["revealed_ms"]))
    }
}

extension Card {
    init(row: LedgerRow) {
        self.init(id: row["id"], cache: row["cache_id"], cacheName: row["name"], message: row["message"],
                  foundAt: Date(millisecondsSince1970: row["found_ms"]),
                  foundLatitude: row["found_lat"], foundLongitude: row["found_lon"])
    }
}

extension Attempt {
    init(row: LedgerRow) {
        self.init(seq: row["seq"], player: row["player_id"], cache: row["cache_id"],
                  time: Date(millisecondsSince1970: row["time_ms"]),
                  verdict: Verdict(rawValue: row["verdict"]) ?? .noCode,
                  method: ClaimMethod(rawValue: row["method"]) ?? .gameMaster)
    }
}

extension Standing {
    init(row: LedgerRow) {
        self.init(player: row["id"], name: row["name"], team: row["team"], points: row["points"], finds: row["finds"])
    }
}

extension LedgerEvent {
    init(row: LedgerRow) {
        self.init(seq: row["seq"], timeMs: row["time_ms"], hunt: row["hunt"], actor: row["actor"], kind: row["kind"],
                  body: row["body"], prevHash: row["prev_hash"], hash: row["hash"])
    }
}
