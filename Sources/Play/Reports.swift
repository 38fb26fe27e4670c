import Crypto
import Foundation
import GeoQR
import Ledger

extension Game {
    /// A player says a cache (id or name) needs maintenance; of a photo only its SHA-256 is
    /// kept.
    ///
    /// ```swift
    /// let report = try await game.fileReport(on: "A2", kind: .unreadable, text: "Faded", photo: nil, by: "P3").value
    /// ```
    public func fileReport(on cache: String, kind: ReportKind, text: String, photo: Data?,
                           by player: String) async throws -> Outcome<Report> {
        let report = try await store.fileReport(cache: try hunt.cacheID(named: cache), kind: kind, text: text,
                                                photoSHA256: photo.map { SHA256.hash(data: $0).hex },
                                                by: player, in: hunt, at: clock())
        return Outcome(report, effects: [.cacheFlagsChanged])
    }
}
