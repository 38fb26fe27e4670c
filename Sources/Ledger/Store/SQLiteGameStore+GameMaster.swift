import Foundation
import GRDB
import GeoQR

extension SQLiteGameStore {
    public func fileReport(cache: String, kind: ReportKind, text: String, photoSHA256: String?,
                           by player: String, in hunt: Hunt, at time: Date) async throws -> Report {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        try Reports.checkText(text)
        let huntID = hunt.id
        return try await write { db in
            let playerID = try Self.requirePlayer(db, hunt: huntID, player)
            let event = try EventAppender.append(db, kind: .reportFiled, hunt: huntID, actor: playerID, at: time) { seq in
                ReportFiled(report: "R\(seq)", player: playerID, cache: site.id, kind: kind, text: text, photoSHA256: photoSHA256)
            }
            return try Self.report(db, hunt: huntID, id: "R\(event.seq)")!
        }
    }

    public func resolveReport(hunt: String, id: String, resolution: String, by actor: String,
                              at time: Date) async throws -> Report {
        let hunt = hunt.uppercased(), id = id.uppercased()
        let resolution = try Reports.checkReason(resolution)
        return try await write { db in
            guard let report = try Self.report(db, hunt: hunt, id: id) else { throw GameRuleViolation.unknownReport(id) }
            guard report.resolution == nil else { throw GameRuleViolation.reportAlreadyResolved(id) }
            try EventAppender.append(db, kind: .reportResolved, hunt: hunt, actor: actor, at: time) { _ in
                ReportResolved(report: id, resolution: resolution)
            }
            return try Self.report(db, hunt: hunt, id: id)!
        }
    }

    public func openReports(hunt: String) async throws -> [Report] {
        let hunt = hunt.uppercased()
        return try await read { db in
            try Row.fetchAll(db.cached("SELECT * FROM reports WHERE hunt = ? AND resolution IS NULL ORDER BY seq"),
                             arguments: [hunt]).map(Self.report)
        }
    }

    public func voidFind(hunt: String, id: String, reason: String, by actor: String, at time: Date) async throws -> Find {
        let hunt = hunt.uppercased(), id = id.uppercased()
        let reason = try Reports.checkReason(reason)
        return try await write { db in
            guard let find = try Self.find(db, id: id), find.hunt == hunt else { throw GameRuleViolation.unknownFind(id) }
            guard find.voidReason == nil else { throw GameRuleViolation.findAlreadyVoided(id) }
            // The card goes back only while its finder holds it; once traded it is someone
            // else's fair acquisition, and stays.
            let card = "C" + id.dropFirst()
            let held = try Bool.fetchOne(db.cached("SELECT EXISTS (SELECT 1 FROM items WHERE id = ? AND owner_id = ?)"),
                                         arguments: [card, find.player])!
            try EventAppender.append(db, kind: .findVoided, hunt: hunt, actor: actor, at: time) { _ in
                FindVoided(find: id, reason: reason, retractedCard: held ? card : nil)
            }
            return try Self.find(db, id: id)!
        }
    }

    public func adjustPoints(hunt: String, player: String, amount: Int, reason: String, by actor: String,
                             at time: Date) async throws {
        let hunt = hunt.uppercased()
        let reason = try Reports.checkReason(reason)
        try await write { db in
            let playerID = try Self.requirePlayer(db, hunt: hunt, player)
            try EventAppender.append(db, kind: .pointsAdjusted, hunt: hunt, actor: actor, at: time) { _ in
                PointsAdjusted(player: playerID, amount: amount, reason: reason)
            }
        }
    }

    public func setCacheDisabled(_ disabled: Bool, cache: String, reason: String, in hunt: Hunt, by actor: String,
                                 at time: Date) async throws {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let reason = try Reports.checkReason(reason)
        let huntID = hunt.id
        try await write { db in
            try EventAppender.append(db, kind: .cacheAvailability, hunt: huntID, actor: actor, at: time) { _ in
                CacheAvailability(cache: site.id, disabled: disabled, reason: reason)
            }
        }
    }

    public func disabledCaches(hunt: String) async throws -> Set<String> {
        let hunt = hunt.uppercased()
        return try await read { db in
            try String.fetchSet(db.cached("SELECT cache_id FROM cache_flags WHERE hunt = ? AND disabled"), arguments: [hunt])
        }
    }

    public func recordSecretRotation(hunt: String, fingerprint: String, by actor: String, at time: Date) async throws {
        let hunt = hunt.uppercased()
        try await write { db in
            try EventAppender.append(db, kind: .secretRotated, hunt: hunt, actor: actor, at: time) { _ in
                SecretRotated(fingerprint: fingerprint)
            }
        }
    }

    @discardableResult
    public func setHuntRunning(_ running: Bool, hunt: String, by actor: String, at time: Date) async throws -> Bool {
        let hunt = hunt.uppercased()
        return try await write { db in
            guard try Self.huntRunning(db, hunt: hunt) != running else { return false }
            try EventAppender.append(db, kind: running ? .huntStarted : .huntStopped, hunt: hunt, actor: actor, at: time) { _ in
                HuntRunning()
            }
            return true
        }
    }

    public func huntRunning(hunt: String) async throws -> Bool {
        let hunt = hunt.uppercased()
        return try await read { db in try Self.huntRunning(db, hunt: hunt) }
    }

    static func huntRunning(_ db: Database, hunt: String) throws -> Bool {
        try Bool.fetchOne(db.cached("SELECT running FROM hunt_state WHERE hunt = ?"), arguments: [hunt]) ?? true
    }

    static func report(_ db: Database, hunt: String, id: String) throws -> Report? {
        try Row.fetchOne(db.cached("SELECT * FROM reports WHERE hunt = ? AND id = ?"), arguments: [hunt, id]).map(report)
    }

    static func report(_ row: Row) -> Report {
        Report(id: row["id"], cache: row["cache_id"], player: row["player_id"],
               kind: ReportKind(rawValue: row["kind"]) ?? .damaged, text: row["text"],
               photoSHA256: row["photo_sha256"], filed: Date(millisecondsSince1970: row["filed_ms"]),
               resolution: row["resolution"])
    }
}
