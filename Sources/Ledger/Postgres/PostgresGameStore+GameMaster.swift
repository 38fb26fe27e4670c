import Foundation
import GeoQR

extension PostgresGameStore {
    public func fileReport(cache: String, kind: ReportKind, text: String, photoSHA256: String?,
                           by player: String, in hunt: Hunt, at time: Date) async throws -> Report {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        try Reports.checkText(text)
        let huntID = hunt.id
        return try await write { tx in
            let playerID = try await Self.requirePlayer(tx.sql, hunt: huntID, player)
            let event = try await tx.append(.reportFiled, hunt: huntID, actor: playerID, at: time) { seq in
                ReportFiled(report: "R\(seq)", player: playerID, cache: site.id, kind: kind, text: text, photoSHA256: photoSHA256)
            }
            return try await Self.report(tx.sql, hunt: huntID, id: "R\(event.seq)")!
        }
    }

    public func resolveReport(hunt: String, id: String, resolution: String, by actor: String,
                              at time: Date) async throws -> Report {
        let hunt = hunt.uppercased(), id = id.uppercased()
        let resolution = try Reports.checkReason(resolution)
        return try await write { tx in
            guard let report = try await Self.report(tx.sql, hunt: hunt, id: id) else { throw GameRuleViolation.unknownReport(id) }
            guard report.resolution == nil else { throw GameRuleViolation.reportAlreadyResolved(id) }
            try await tx.append(.reportResolved, hunt: hunt, actor: actor, at: time) { _ in
                ReportResolved(report: id, resolution: resolution)
            }
            return try await Self.report(tx.sql, hunt: hunt, id: id)!
        }
    }

    public func openReports(hunt: String) async throws -> [Report] {
        let hunt = hunt.uppercased()
        return try await read { sql in
            try await sql.rows("SELECT * FROM reports WHERE hunt = ? AND resolution IS NULL ORDER BY seq", hunt).map(Self.report)
        }
    }

    public func voidFind(hunt: String, id: String, reason: String, by actor: String, at time: Date) async throws -> Find {
        let hunt = hunt.uppercased(), id = id.uppercased()
        let reason = try Reports.checkReason(reason)
        return try await write { tx in
            guard let find = try await Self.find(tx.sql, id: id), find.hunt == hunt else { throw GameRuleViolation.unknownFind(id) }
            guard find.voidReason == nil else { throw GameRuleViolation.findAlreadyVoided(id) }
            // The card goes back only while its finder holds it; once traded it is someone
            // else's fair acquisition, and stays.
            let card = "C" + id.dropFirst()
            let held = try await tx.sql.row("SELECT 1 AS held FROM items WHERE id = ? AND owner_id = ?", card, find.player) != nil
            try await tx.append(.findVoided, hunt: hunt, actor: actor, at: time) { _ in
                FindVoided(find: id, reason: reason, retractedCard: held ? card : nil)
            }
            return try await Self.find(tx.sql, id: id)!
        }
    }

    public func adjustPoints(hunt: String, player: String, amount: Int, reason: String, by actor: String,
                             at time: Date) async throws {
        let hunt = hunt.uppercased()
        let reason = try Reports.checkReason(reason)
        try await write { tx in
            let playerID = try await Self.requirePlayer(tx.sql, hunt: hunt, player)
            try await tx.append(.pointsAdjusted, hunt: hunt, actor: actor, at: time) { _ in
                PointsAdjusted(player: playerID, amount: amount, reason: reason)
            }
        }
    }

    public func setCacheDisabled(_ disabled: Bool, cache: String, reason: String, in hunt: Hunt, by actor: String,
                                 at time: Date) async throws {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let reason = try Reports.checkReason(reason)
        let huntID = hunt.id
        try await write { tx in
            try await tx.append(.cacheAvailability, hunt: huntID, actor: actor, at: time) { _ in
                CacheAvailability(cache: site.id, disabled: disabled, reason: reason)
            }
        }
    }

    public func disabledCaches(hunt: String) async throws -> Set<String> {
        let hunt = hunt.uppercased()
        return try await read { sql in
            Set(try await sql.rows("SELECT cache_id FROM cache_flags WHERE hunt = ? AND disabled <> 0", hunt).map { $0["cache_id"] })
        }
    }

    public func recordSecretRotation(hunt: String, fingerprint: String, by actor: String, at time: Date) async throws {
        let hunt = hunt.uppercased()
        try await write { tx in
            try await tx.append(.secretRotated, hunt: hunt, actor: actor, at: time) { _ in SecretRotated(fingerprint: fingerprint) }
        }
    }

    @discardableResult
    public func setHuntRunning(_ running: Bool, hunt: String, by actor: String, at time: Date) async throws -> Bool {
        let hunt = hunt.uppercased()
        return try await write { tx in
            guard try await Self.huntRunning(tx.sql, hunt: hunt) != running else { return false }
            try await tx.append(running ? .huntStarted : .huntStopped, hunt: hunt, actor: actor, at: time) { _ in HuntRunning() }
            return true
        }
    }

    public func huntRunning(hunt: String) async throws -> Bool {
        let hunt = hunt.uppercased()
        return try await read { sql in try await Self.huntRunning(sql, hunt: hunt) }
    }

    static func huntRunning(_ sql: PostgresSQL, hunt: String) async throws -> Bool {
        try await sql.row("SELECT running FROM hunt_state WHERE hunt = ?", hunt)?["running"] ?? true
    }

    public func revealHint(cache: String, cost: Int, to player: String, in hunt: Hunt,
                           at time: Date) async throws -> (reveal: HintReveal, isNew: Bool) {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let huntID = hunt.id
        return try await write { tx in
            let playerID = try await Self.requirePlayer(tx.sql, hunt: huntID, player)
            // Read and write in one transaction: two taps on "reveal" pay once.
            if let paid = try await Self.hint(tx.sql, hunt: huntID, player: playerID, cache: site.id) { return (paid, false) }
            try await tx.append(.hintRevealed, hunt: huntID, actor: playerID, at: time) { _ in
                HintRevealed(player: playerID, cache: site.id, cost: cost)
            }
            return (try await Self.hint(tx.sql, hunt: huntID, player: playerID, cache: site.id)!, true)
        }
    }

    public func hints(hunt: String, player: String?) async throws -> [HintReveal] {
        let hunt = hunt.uppercased()
        return try await read(snapshot: player != nil) { sql in
            guard let player else {
                return try await sql.rows("SELECT * FROM hints WHERE hunt = ? ORDER BY seq", hunt).map(Self.hint)
            }
            let id = try await Self.requirePlayer(sql, hunt: hunt, player)
            return try await sql.rows("SELECT * FROM hints WHERE hunt = ? AND player_id = ? ORDER BY seq", hunt, id).map(Self.hint)
        }
    }

    static func hint(_ sql: PostgresSQL, hunt: String, player: String, cache: String) async throws -> HintReveal? {
        try await sql.row("SELECT * FROM hints WHERE hunt = ? AND player_id = ? AND cache_id = ?", hunt, player, cache).map(hint)
    }

    static func hint(_ row: LedgerRow) -> HintReveal {
        HintReveal(player: row["player_id"], cache: row["cache_id"], cost: row["cost"],
                   time: Date(millisecondsSince1970: row["revealed_ms"]))
    }

    static func report(_ sql: PostgresSQL, hunt: String, id: String) async throws -> Report? {
        try await sql.row("SELECT * FROM reports WHERE hunt = ? AND id = ?", hunt, id).map(report)
    }

    static func report(_ row: LedgerRow) -> Report {
        Report(id: row["id"], cache: row["cache_id"], player: row["player_id"],
               kind: ReportKind(rawValue: row["kind"]) ?? .damaged, text: row["text"],
               photoSHA256: row["photo_sha256"], filed: Date(millisecondsSince1970: row["filed_ms"]),
               resolution: row["resolution"])
    }
}
