import Foundation
import GeoQR

/// Where each player's phone last said it was, for the game master's map only: players are
/// told so when they join, and no other player ever sees it. Kept in memory: a position is
/// news, not a record, and the ledger never holds one outside a claim.
///
/// ```swift
/// let whereabouts = Whereabouts()
/// await whereabouts.report(player: "P3", at: fix, time: now)
/// await whereabouts.all()   // [PositionFix(player: "P3", …)]
/// ```
actor Whereabouts {
    private var last: [String: PositionFix] = [:]

    /// Keeps `fix` as the player's last position and returns it as recorded.
    @discardableResult
    func report(player: String, latitude: Double, longitude: Double, accuracy: Double?, time: Date) -> PositionFix {
        let fix = PositionFix(player: player, latitude: latitude, longitude: longitude, accuracyM: accuracy, at: time)
        last[player] = fix
        return fix
    }

    /// Forgets one player's position (the player was forgotten).
    func forget(player: String) {
        last[player] = nil
    }

    /// Forgets every position: the hunt has ended, and what was news is no longer.
    func clear() {
        last.removeAll()
    }

    /// Every player's last position, oldest first.
    func all() -> [PositionFix] {
        last.values.sorted { $0.at < $1.at }
    }
}

/// One player's last reported position, its accuracy and when it came.
struct PositionFix: Codable, Sendable, Equatable {
    var player: String
    var latitude: Double
    var longitude: Double
    var accuracyM: Double?
    var at: Date
}
