import Crypto
import Foundation
import GeoQR
import Ledger

extension Game {
    /// A player says a cache (id or name) needs maintenance; of a photo only its SHA-256 is
    /// kept. The text follows ``GeoQR/PlayerText/report``; a player has at most
    /// ``GeoQR/PlayerQuotas/openReports`` reports open at once.
    ///
    /// ```swift
    /// let report = try await game.fileReport(on: "A2", kind: .unreadable, text: "Faded", photo: nil, by: "P3").value
    /// ```
    public func fileReport(on cache: String, kind: ReportKind, text: String, photo: Data?,
                           by player: String) async throws -> Outcome<Report> {
        // Text first: the ledger keeps it for good, so nothing is read or hashed for a text
        // that breaks ``GeoQR/PlayerText/report``.
        try Reports.checkText(text)
        let id = try await self.player(named: player).id
        let open = try await store.openReports(hunt: huntID).filter { $0.player == id }.count
        guard open < PlayerQuotas.openReports else { throw GameRuleViolation.tooManyOpenReports(limit: PlayerQuotas.openReports) }
        let report = try await store.fileReport(cache: try hunt.cacheID(named: cache), kind: kind, text: text,
                                                photoSHA256: photo.map { SHA256.hash(data: $0).hex },
                                                by: player, in: hunt, at: clock())
        return Outcome(report, effects: [.cacheFlagsChanged])
    }
}
