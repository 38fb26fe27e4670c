import Foundation
import GRDB
import GeoQR

extension SQLiteGameStore {
    public func resetPIN(hunt: String, player: String, pin: String, by actor: String, at time: Date) async throws -> Player {
        let hunt = hunt.uppercased()
        // Fail fast on a bad PIN or an unknown player, before paying for bcrypt; the write re-checks.
        try PINPolicy.checkFormat(pin)
        guard try await self.player(hunt: hunt, named: player) != nil else { throw GameRuleViolation.unknownPlayer(player) }
        let pinHash = try await PINHashing.hash(pin, cost: configuration.pinCost)
        return try await write { db in
            guard let row = try Self.playerRow(db, hunt: hunt, named: player) else { throw GameRuleViolation.unknownPlayer(player) }
            let id: String = row["id"]
            let event = try EventAppender.append(db, kind: .pinReset, hunt: hunt, actor: actor, at: time) { _ in
                PINReset(player: id)
            }
            try Credential.replace(db, hunt: hunt, playerID: id, pinHash: pinHash, seq: event.seq)
            // The old PIN's sessions end with it, on every server.
            try db.execute(literal: "DELETE FROM sessions WHERE hunt = \(hunt) AND player_id = \(id)")
            return Self.player(row)
        }
    }
}
