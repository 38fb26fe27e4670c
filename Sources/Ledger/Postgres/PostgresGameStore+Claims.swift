import Foundation
import GeoQR

extension PostgresGameStore {
    public func record(_ claim: ClaimRecord, in hunt: Hunt, at time: Date) async throws -> ClaimOutcome {
        let claim = claim.normalized(for: hunt)
        let scoring = configuration.scoring
        return try await write { tx in
            var claim = claim
            claim.player = try await Self.requirePlayer(tx.sql, hunt: hunt.id, claim.player)
            if let id = claim.claimID, let earlier = try await Self.earlierSending(tx.sql, hunt: hunt.id, claimID: id) {
                return .resent(earlier)
            }
            let cache = claim.cache.flatMap(hunt.cache(id:))
            let facts = try await tx.sql.row("""
                SELECT (SELECT id FROM finds WHERE hunt = ? AND player_id = ? AND cache_id = ? AND voided = 0) AS existing,
                       COALESCE((SELECT disabled FROM cache_flags WHERE hunt = ? AND cache_id = ?), 0) AS disabled,
                       EXISTS (SELECT 1 FROM finds WHERE hunt = ? AND cache_id = ? AND voided = 0) AS found_before,
                       EXISTS (SELECT 1 FROM items WHERE hunt = ? AND kind = 'card' AND owner_id = ? AND cache_id = ?) AS holds_card
                """, hunt.id, claim.player, claim.cache ?? "", hunt.id, claim.cache ?? "", hunt.id, claim.cache ?? "",
                     hunt.id, claim.player, claim.cache ?? "")!
            switch Finding.decide(claim, cache: cache, disabled: facts["disabled"], existingFind: facts["existing"]) {
            case .repeatOf(let id):
                return .alreadyFound(try await Self.find(tx.sql, id: id)!)
            case .attempt(let verdict):
                try await tx.append(.claimAttempted, hunt: hunt.id, actor: claim.player, at: time) { _ in
                    ClaimAttempted(claim: claim, verdict: verdict)
                }
                return .attempt(verdict: verdict)
            case .newFind:
                let cache = cache!
                // Only trails need the order of earlier finds, and only of their own caches.
                let trailCaches = NewFind.trailCaches(of: cache.id, in: hunt)
                var earlier: [(cache: String, timeMs: Int64)] = []
                if !trailCaches.isEmpty {
                    earlier = try await tx.sql.rows("""
                        SELECT cache_id, time_ms FROM finds WHERE hunt = ? AND player_id = ? AND voided = 0
                        AND cache_id IN (SELECT jsonb_array_elements_text(?::jsonb))
                        """, hunt.id, claim.player, try BodyCoding.encode(trailCaches.sorted()))
                        .map { (cache: $0["cache_id"], timeMs: $0["time_ms"]) }
                }
                let body = NewFind.body(seq: tx.nextSeq, claim: claim, cache: cache, hunt: hunt, scoring: scoring,
                                        firstToFind: !(facts["found_before"] as Bool), playerHoldsCard: facts["holds_card"],
                                        earlierTrailFinds: earlier)
                try await tx.append(.findRecorded, hunt: hunt.id, actor: claim.player, at: time) { _ in body }
                return NewFind.outcome(of: body, hunt: hunt.id)
            }
        }
    }

    /// What a claim sent before under this id came to, or nil for a first sending.
    private static func earlierSending(_ sql: PostgresSQL, hunt: String, claimID: String) async throws -> ClaimOutcome? {
        guard let row = try await sql.row("SELECT find_id, verdict FROM claim_ids WHERE hunt = ? AND claim_id = ?",
                                          hunt, claimID) else { return nil }
        guard let findID: String = row["find_id"], let find = try await find(sql, id: findID) else {
            return .attempt(verdict: Verdict(rawValue: row["verdict"]) ?? .noCode)
        }
        let points: Int = try await sql.row("SELECT COALESCE(SUM(amount), 0)::bigint AS points FROM points WHERE find_id = ?",
                                            findID)!["points"]
        let card: String? = try await sql.row("SELECT id FROM items WHERE id = ?", "C" + findID.dropFirst())?["id"]
        return .found(find, points: points, card: card)
    }

    public func finds(hunt: String, player: String?) async throws -> [Find] {
        let hunt = hunt.uppercased()
        return try await read(snapshot: player != nil) { sql in
            guard let player else {
                return try await sql.rows("SELECT * FROM finds WHERE hunt = ? ORDER BY time_ms, seq", hunt).map(Self.find)
            }
            let id = try await Self.requirePlayer(sql, hunt: hunt, player)
            return try await sql.rows("SELECT * FROM finds WHERE hunt = ? AND player_id = ? ORDER BY time_ms, seq", hunt, id)
                .map(Self.find)
        }
    }

    public func collection(hunt: String, player: String) async throws -> [Card] {
        let hunt = hunt.uppercased()
        return try await read(snapshot: true) { sql in
            let id = try await Self.requirePlayer(sql, hunt: hunt, player)
            return try await sql.rows("""
                SELECT * FROM items WHERE hunt = ? AND kind = 'card' AND owner_id = ? ORDER BY found_ms DESC, id DESC
                """, hunt, id).map { row in
                Card(id: row["id"], cache: row["cache_id"], cacheName: row["name"], message: row["message"],
                     foundAt: Date(millisecondsSince1970: row["found_ms"]),
                     foundLatitude: row["found_lat"], foundLongitude: row["found_lon"])
            }
        }
    }

    public func leaderboard(hunt: String) async throws -> [Standing] {
        let hunt = hunt.uppercased()
        return try await read { sql in
            try await sql.rows("""
                SELECT p.id, p.name, p.team,
                       COALESCE((SELECT SUM(amount) FROM points WHERE hunt = p.hunt AND player_id = p.id), 0)::bigint AS points,
                       (SELECT COUNT(*) FROM finds WHERE hunt = p.hunt AND player_id = p.id AND voided = 0) AS finds
                FROM players p WHERE p.hunt = ?
                ORDER BY points DESC, finds DESC, p.name_key COLLATE "C"
                """, hunt).map {
                Standing(player: $0["id"], name: $0["name"], team: $0["team"], points: $0["points"], finds: $0["finds"])
            }
        }
    }

    public func pointsByFind(hunt: String) async throws -> [String: Int] {
        let hunt = hunt.uppercased()
        return try await read { sql in
            let rows = try await sql.rows("""
                SELECT find_id, SUM(amount)::bigint AS points FROM points
                WHERE hunt = ? AND find_id IS NOT NULL GROUP BY find_id
                """, hunt)
            return Dictionary(uniqueKeysWithValues: rows.map { ($0["find_id"] as String, $0["points"] as Int) })
        }
    }

    public func attempts(hunt: String) async throws -> [Attempt] {
        let hunt = hunt.uppercased()
        return try await read { sql in
            try await sql.rows("SELECT * FROM attempts WHERE hunt = ? ORDER BY seq", hunt).map { row in
                Attempt(seq: row["seq"], player: row["player_id"], cache: row["cache_id"],
                        time: Date(millisecondsSince1970: row["time_ms"]),
                        verdict: Verdict(rawValue: row["verdict"]) ?? .noCode,
                        method: ClaimMethod(rawValue: row["method"]) ?? .gameMaster)
            }
        }
    }

    public func flags(in hunt: Hunt) async throws -> [CheatFlag] {
        let finds = try await finds(hunt: hunt.id, player: nil)
        return CheatFlags.flags(finds.filter { $0.voidReason == nil }.map(\.facts), in: hunt)
    }

    static func liveFindID(_ sql: PostgresSQL, hunt: String, player: String, cache: String) async throws -> String? {
        try await sql.row("SELECT id FROM finds WHERE hunt = ? AND player_id = ? AND cache_id = ? AND voided = 0",
                          hunt, player, cache)?["id"]
    }

    static func find(_ sql: PostgresSQL, id: String) async throws -> Find? {
        try await sql.row("SELECT * FROM finds WHERE id = ?", id).map(find)
    }

    static func find(_ row: LedgerRow) -> Find {
        let lat: Double? = row["lat"], lon: Double? = row["lon"]
        return Find(id: row["id"], hunt: row["hunt"], player: row["player_id"], cache: row["cache_id"],
                    time: Date(millisecondsSince1970: row["time_ms"]),
                    location: lat.flatMap { la in lon.map { Coordinate(latitude: la, longitude: $0) } },
                    method: ClaimMethod(rawValue: row["method"]) ?? .gameMaster, photoSHA256: row["photo_sha256"],
                    firstToFind: row["first_to_find"], voidReason: row["void_reason"])
    }
}
