import Foundation
import GRDB
import GeoQR

extension SQLiteGameStore {
    public func record(_ claim: ClaimRecord, in hunt: Hunt, at time: Date) async throws -> ClaimOutcome {
        let claim = claim.normalized(for: hunt)
        let scoring = configuration.scoring
        let huntID = hunt.id
        let recordedAt = time
        return try await write { [claim] db in
            var claim = claim
            claim.player = try Self.requirePlayer(db, hunt: huntID, claim.player)
            if let id = claim.claimID, let earlier = try Self.earlierSending(db, hunt: huntID, player: claim.player, claimID: id) {
                return .resent(earlier)
            }
            let cache = claim.cache.flatMap(hunt.cache(id:))
            let facts = try Self.claimFacts(db, hunt: huntID, player: claim.player, cache: claim.cache ?? "")
            switch Finding.decide(claim, cache: cache, disabled: facts.disabled, existingFind: facts.existingFind) {
            case .repeatOf(let id):
                return .alreadyFound(try Self.find(db, id: id)!)
            case .attempt(let verdict):
                try EventAppender.append(db, kind: .claimAttempted, hunt: huntID, actor: claim.player, at: recordedAt) { _ in
                    ClaimAttempted(claim: claim, verdict: verdict)
                }
                return .attempt(verdict: verdict)
            case .newFind:
                return try Self.appendFind(db, claim: claim, cache: cache!, hunt: hunt, scoring: scoring, facts: facts,
                                           at: recordedAt)
            }
        }
    }

    /// What a claim this player sent before under this id came to, or nil for a first sending.
    /// Ids are the player's own: the same id from another player is a claim of theirs.
    private static func earlierSending(_ db: Database, hunt: String, player: String, claimID: String) throws -> ClaimOutcome? {
        guard let row = try Row.fetchOne(db.cached("SELECT find_id, verdict FROM claim_ids WHERE hunt = ? AND player_id = ? AND claim_id = ?"),
                                         arguments: [hunt, player, claimID]) else { return nil }
        guard let findID: String = row["find_id"], let find = try find(db, id: findID) else {
            return .attempt(verdict: Verdict(rawValue: row["verdict"]) ?? .noCode)
        }
        let points = try Int.fetchOne(db.cached("SELECT COALESCE(SUM(amount), 0) FROM points WHERE find_id = ?"), arguments: [findID]) ?? 0
        let card = try String.fetchOne(db.cached("SELECT id FROM items WHERE id = ?"), arguments: ["C" + findID.dropFirst()])
        return .found(find, points: points, card: card)
    }

    /// What the rules need to know about a claim, read in one statement: claims are the hot path.
    private struct ClaimFacts {
        var existingFind: String?
        var disabled: Bool
        var cacheFoundBefore: Bool
        var playerHoldsCard: Bool
    }

    private static func claimFacts(_ db: Database, hunt: String, player: String, cache: String) throws -> ClaimFacts {
        try db.firstRow(db.cached("""
            SELECT (SELECT id FROM finds WHERE hunt = ?1 AND player_id = ?2 AND cache_id = ?3 AND voided = 0),
                   COALESCE((SELECT disabled FROM cache_flags WHERE hunt = ?1 AND cache_id = ?3), 0),
                   EXISTS (SELECT 1 FROM finds WHERE hunt = ?1 AND cache_id = ?3 AND voided = 0),
                   EXISTS (SELECT 1 FROM items WHERE hunt = ?1 AND kind = 'card' AND owner_id = ?2 AND cache_id = ?3)
            """), binding: [.text(hunt), .text(player), .text(cache)]) { row in
            ClaimFacts(existingFind: row.text(0), disabled: row.bool(1), cacheFoundBefore: row.bool(2),
                       playerHoldsCard: row.bool(3))
        }!
    }

    private static func appendFind(_ db: Database, claim: ClaimRecord, cache: Cache, hunt: Hunt,
                                   scoring: Scoring, facts: ClaimFacts, at recordedAt: Date) throws -> ClaimOutcome {
        // Only trails need the order of earlier finds, and only of their own caches.
        let trailCaches = NewFind.trailCaches(of: cache.id, in: hunt)
        var earlier: [(cache: String, timeMs: Int64)] = []
        if !trailCaches.isEmpty {
            earlier = try Row.fetchAll(db.cached("""
                SELECT cache_id, time_ms FROM finds WHERE hunt = ? AND player_id = ? AND voided = 0
                AND cache_id IN (SELECT value FROM json_each(?))
                """), arguments: [hunt.id, claim.player, try BodyCoding.encode(trailCaches.sorted())])
                .map { (cache: $0["cache_id"] as String, timeMs: $0["time_ms"] as Int64) }
        }
        var body: FindRecorded?
        try EventAppender.append(db, kind: .findRecorded, hunt: hunt.id, actor: claim.player, at: recordedAt) { seq in
            body = NewFind.body(seq: seq, claim: claim, cache: cache, hunt: hunt, scoring: scoring,
                                firstToFind: !facts.cacheFoundBefore, playerHoldsCard: facts.playerHoldsCard,
                                earlierTrailFinds: earlier)
            return body!
        }
        return NewFind.outcome(of: body!, hunt: hunt.id)
    }

    public func finds(hunt: String, player: String?) async throws -> [Find] {
        let hunt = hunt.uppercased()
        return try await read { db in
            var sql = "SELECT * FROM finds WHERE hunt = ?"
            var arguments: StatementArguments = [hunt]
            if let player {
                sql += " AND player_id = ?"
                arguments += [try Self.requirePlayer(db, hunt: hunt, player)]
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY time_ms, seq", arguments: arguments).map(Self.find)
        }
    }

    public func collection(hunt: String, player: String) async throws -> [Card] {
        let hunt = hunt.uppercased()
        return try await read { db in
            let id = try Self.requirePlayer(db, hunt: hunt, player)
            return try Row.fetchAll(db.cached("""
                SELECT * FROM items WHERE hunt = ? AND kind = 'card' AND owner_id = ? ORDER BY found_ms DESC, id DESC
                """), arguments: [hunt, id]).map { row in
                Card(id: row["id"], cache: row["cache_id"], cacheName: row["name"], message: row["message"],
                     foundAt: Date(millisecondsSince1970: row["found_ms"]),
                     foundLatitude: row["found_lat"], foundLongitude: row["found_lon"])
            }
        }
    }

    public func leaderboard(hunt: String) async throws -> [Standing] {
        let hunt = hunt.uppercased()
        return try await read { db in
            try Row.fetchAll(db.cached("""
                SELECT p.id, p.name, p.team,
                       COALESCE((SELECT SUM(amount) FROM points WHERE hunt = p.hunt AND player_id = p.id), 0) AS points,
                       (SELECT COUNT(*) FROM finds WHERE hunt = p.hunt AND player_id = p.id AND voided = 0) AS finds
                FROM players p WHERE p.hunt = ?
                ORDER BY points DESC, finds DESC, p.name_key
                """), arguments: [hunt]).map {
                Standing(player: $0["id"], name: $0["name"], team: $0["team"], points: $0["points"], finds: $0["finds"])
            }
        }
    }

    public func pointsByFind(hunt: String) async throws -> [String: Int] {
        let hunt = hunt.uppercased()
        return try await read { db in
            let rows = try SQLRequest<Row>(literal: """
                SELECT find_id, SUM(amount) AS points FROM points
                WHERE hunt = \(hunt) AND find_id IS NOT NULL GROUP BY find_id
                """).fetchAll(db)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["find_id"] as String, $0["points"] as Int) })
        }
    }

    public func attempts(hunt: String) async throws -> [Attempt] {
        let hunt = hunt.uppercased()
        return try await read { db in
            try SQLRequest<Row>(literal: "SELECT * FROM attempts WHERE hunt = \(hunt) ORDER BY seq").fetchAll(db).map { row in
                Attempt(seq: row["seq"], player: row["player_id"], cache: row["cache_id"],
                        time: Date(millisecondsSince1970: row["time_ms"]),
                        verdict: Verdict(rawValue: row["verdict"]) ?? .noCode,
                        method: ClaimMethod(rawValue: row["method"]) ?? .gameMaster)
            }
        }
    }

    static func liveFindID(_ db: Database, hunt: String, player: String, cache: String) throws -> String? {
        try String.fetchOne(db.cached("SELECT id FROM finds WHERE hunt = ? AND player_id = ? AND cache_id = ? AND voided = 0"),
                            arguments: [hunt, player, cache])
    }

    static func isDisabled(_ db: Database, hunt: String, cache: String) throws -> Bool {
        try Bool.fetchOne(db.cached("SELECT disabled FROM cache_flags WHERE hunt = ? AND cache_id = ?"),
                          arguments: [hunt, cache]) ?? false
    }

    static func find(_ db: Database, id: String) throws -> Find? {
        try Row.fetchOne(db.cached("SELECT * FROM finds WHERE id = ?"), arguments: [id]).map(find)
    }

    static func find(_ row: Row) -> Find {
        let lat: Double? = row["lat"], lon: Double? = row["lon"]
        return Find(id: row["id"], hunt: row["hunt"], player: row["player_id"], cache: row["cache_id"],
                    time: Date(millisecondsSince1970: row["time_ms"]),
                    location: lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } },
                    method: ClaimMethod(rawValue: row["method"]) ?? .gameMaster, photoSHA256: row["photo_sha256"],
                    firstToFind: row["first_to_find"], voidReason: row["void_reason"])
    }
}
