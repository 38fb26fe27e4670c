import Foundation
import GeoQR

extension GameStore {
    /// A player says a cache needs maintenance.
    public func fileReport(cache: String, kind: ReportKind, text: String, photoSHA256: String?,
                           by player: String, in hunt: Hunt, at time: Date) async throws -> Report {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        try Reports.checkText(text)
        let huntID = hunt.id
        return try await perform(LedgerAct { facts in
            let playerID = try facts.requirePlayer(hunt: huntID, player)
            let filed = NewEvent(.reportFiled, hunt: huntID, actor: playerID, at: time) { seq in
                ReportFiled(report: "R\(seq)", player: playerID, cache: site.id, kind: kind, text: text, photoSHA256: photoSHA256)
            }
            return Decision(events: [filed]) { facts, appended in try facts.report(hunt: huntID, id: "R\(appended[0].seq)")! }
        })
    }

    /// The game master closes a report.
    public func resolveReport(hunt: String, id: String, resolution: String, by actor: String,
                              at time: Date) async throws -> Report {
        let hunt = hunt.uppercased(), id = id.uppercased()
        let resolution = try Reports.checkReason(resolution)
        return try await perform(LedgerAct { facts in
            guard let report = try facts.report(hunt: hunt, id: id) else { throw GameRuleViolation.unknownReport(id) }
            guard report.resolution == nil else { throw GameRuleViolation.reportAlreadyResolved(id) }
            let resolved = NewEvent(.reportResolved, hunt: hunt, actor: actor, at: time) { _ in
                ReportResolved(report: id, resolution: resolution)
            }
            return Decision(events: [resolved]) { facts, _ in try facts.report(hunt: hunt, id: id)! }
        })
    }

    /// Reports not yet resolved, oldest first.
    public func openReports(hunt: String) async throws -> [Report] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            try facts.rows("SELECT * FROM reports WHERE hunt = ? AND resolution IS NULL ORDER BY seq", hunt).map(Report.init(row:))
        })
    }

    /// Voids a find: its points go; its card goes too if the finder still holds it (once traded
    /// it is someone else's fair acquisition, and stays).
    public func voidFind(hunt: String, id: String, reason: String, by actor: String, at time: Date) async throws -> Find {
        let hunt = hunt.uppercased(), id = id.uppercased()
        let reason = try Reports.checkReason(reason)
        return try await perform(LedgerAct { facts in
            guard let find = try facts.find(id: id), find.hunt == hunt else { throw GameRuleViolation.unknownFind(id) }
            guard find.voidReason == nil else { throw GameRuleViolation.findAlreadyVoided(id) }
            let card = "C" + id.dropFirst()
            let held = try facts.row("SELECT 1 AS held FROM items WHERE id = ? AND owner_id = ?", card, find.player) != nil
            let voided = NewEvent(.findVoided, hunt: hunt, actor: actor, at: time) { _ in
                FindVoided(find: id, reason: reason, retractedCard: held ? card : nil)
            }
            return Decision(events: [voided]) { facts, _ in try facts.find(id: id)! }
        })
    }

    /// Adds (or, negative, takes) points, with a reason.
    public func adjustPoints(hunt: String, player: String, amount: Int, reason: String, by actor: String,
                             at time: Date) async throws {
        let hunt = hunt.uppercased()
        let reason = try Reports.checkReason(reason)
        try await perform(LedgerAct { facts in
            let playerID = try facts.requirePlayer(hunt: hunt, player)
            let adjusted = NewEvent(.pointsAdjusted, hunt: hunt, actor: actor, at: time) { _ in
                PointsAdjusted(player: playerID, amount: amount, reason: reason)
            }
            return Decision(events: [adjusted]) { _, _ in () }
        })
    }

    /// Disables (or re-enables) a cache: claims on a disabled cache are kept as attempts.
    public func setCacheDisabled(_ disabled: Bool, cache: String, reason: String, in hunt: Hunt, by actor: String,
                                 at time: Date) async throws {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let reason = try Reports.checkReason(reason)
        let huntID = hunt.id
        try await perform(LedgerAct { _ in
            let changed = NewEvent(.cacheAvailability, hunt: huntID, actor: actor, at: time) { _ in
                CacheAvailability(cache: site.id, disabled: disabled, reason: reason)
            }
            return Decision(events: [changed]) { _, _ in () }
        })
    }

    /// Caches the game master has disabled.
    public func disabledCaches(hunt: String) async throws -> Set<String> {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            Set(try facts.rows("SELECT cache_id FROM cache_flags WHERE hunt = ? AND disabled <> 0", hunt).map { $0["cache_id"] })
        })
    }

    /// Records that the hunt's secret was rotated (see ``GeoQR/SecretRotation``).
    public func recordSecretRotation(hunt: String, fingerprint: String, by actor: String, at time: Date) async throws {
        let hunt = hunt.uppercased()
        try await perform(LedgerAct { _ in
            let rotated = NewEvent(.secretRotated, hunt: hunt, actor: actor, at: time) { _ in SecretRotated(fingerprint: fingerprint) }
            return Decision(events: [rotated]) { _, _ in () }
        })
    }

    /// Starts or stops the hunt (a stopped hunt refuses claims and trades in the server).
    /// Answers whether anything changed: starting a running hunt records nothing.
    @discardableResult
    public func setHuntRunning(_ running: Bool, hunt: String, by actor: String, at time: Date) async throws -> Bool {
        let hunt = hunt.uppercased()
        return try await perform(LedgerAct { facts in
            guard try facts.huntRunning(hunt: hunt) != running else { return .answer(false) }
            let changed = NewEvent(running ? .huntStarted : .huntStopped, hunt: hunt, actor: actor, at: time) { _ in HuntRunning() }
            return Decision(events: [changed]) { _, _ in true }
        })
    }

    /// Whether the hunt is running: it is until the game master first stops it.
    public func huntRunning(hunt: String) async throws -> Bool {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in try facts.huntRunning(hunt: hunt) })
    }
}
