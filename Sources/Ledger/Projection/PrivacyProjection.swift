import Foundation

/// The part of the projection that forgets: positions dropped after a hunt, a player forgotten.
/// The stored events lose their private parts in the same transaction (the act's private
/// writes); these statements make the derived tables what replaying those redacted events
/// rebuilds, so `ledger verify` finds the two the same.
enum PrivacyProjection {
    static func statements(_ kind: EventKind, _ event: LedgerEvent, decoded: (any Sendable)?) throws -> [ProjectionStatement] {
        func body<T: Decodable>(_ type: T.Type) throws -> T {
            if let value = decoded as? T { return value }
            return try BodyCoding.decode(type, from: event.body)
        }
        switch kind {
        case .positionsDropped:
            return [.init("UPDATE finds SET lat = NULL, lon = NULL WHERE hunt = ?", event.hunt),
                    .init("UPDATE attempts SET lat = NULL, lon = NULL WHERE hunt = ?", event.hunt),
                    .init("UPDATE items SET found_lat = NULL, found_lon = NULL WHERE hunt = ? AND kind = 'card'", event.hunt)]
        case .playerForgotten:
            let b = try body(PlayerForgotten.self)
            return [
                .init("""
                    UPDATE players SET name = ?, name_key = ?, pin_failures = 0, locked_until_ms = NULL, seq = ? WHERE id = ?
                    """, b.pseudonym, PlayerForgotten.nameKey(of: b.player), event.seq, b.player),
                // Where their cards were found, while the finds still say which cards are theirs.
                .init("""
                    UPDATE items SET found_lat = NULL, found_lon = NULL
                    WHERE kind = 'card' AND id IN (SELECT 'C' || substr(id, 2) FROM finds WHERE player_id = ?)
                    """, b.player),
                .init("UPDATE finds SET lat = NULL, lon = NULL WHERE player_id = ?", b.player),
                .init("UPDATE attempts SET lat = NULL, lon = NULL WHERE player_id = ?", b.player),
                .init("""
                    UPDATE reports SET text = '', photo_sha256 = NULL,
                        resolution = CASE WHEN resolution IS NULL THEN NULL ELSE '' END
                    WHERE player_id = ?
                    """, b.player),
                // The game master's reasons for rejecting their photos (sealed, so redacted too).
                .init("UPDATE photo_submissions SET reason = CASE WHEN reason IS NULL THEN NULL ELSE '' END WHERE player_id = ?",
                      b.player),
            ]
        default:
            return []
        }
    }
}
