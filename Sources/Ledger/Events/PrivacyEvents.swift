import Foundation

// Privacy: what the ledger keeps of a player once the hunt is over, or once they asked to be
// forgotten. A format-2 body's private part (``EventSeal``) can be replaced in the stored event
// by its commitment, as the published export shows it: the hash still covers the same text, so
// the chain verifies, and what was committed is gone from the store.

/// Body of ``EventKind/positionsDropped``: the hunt ended, its positions were kept for the hunt
/// file's `positionRetentionHours`, and then every stored position was dropped: the claims'
/// private parts became their commitments, and the derived tables lost their coordinates.
///
/// ```swift
/// if case .positionsDropped(let body) = try event.decodedBody() { print(body.claims, body.retentionHours) }
/// ```
public struct PositionsDropped: Codable, Sendable, Equatable {
    /// Claim events whose position was dropped.
    public var claims: Int
    /// When the hunt ended (milliseconds since 1970): stopped by the game master, or its end.
    public var endedMs: Int64
    /// How long positions were kept after that, as the hunt file said.
    public var retentionHours: Double
}

/// Body of ``EventKind/playerForgotten``: the game master forgot a player at their request.
/// It holds no personal data: the id the ledger already used, and the pseudonym the player is
/// shown under from now on (their finds and points stay, so the standings stay right).
///
/// ```swift
/// if case .playerForgotten(let body) = try event.decodedBody() { print(body.player, "is now", body.pseudonym) }
/// ```
public struct PlayerForgotten: Codable, Sendable, Equatable {
    public var player: String
    /// "Forgotten player 3": the third player forgotten in the hunt.
    public var pseudonym: String
    /// Events whose private part (a name, a position, a report's words) became its commitment.
    public var events: Int

    /// The pseudonym of the `number`th player forgotten in a hunt.
    public static func pseudonym(number: Int) -> String { "Forgotten player \(number)" }

    /// The name key a forgotten player is kept under: upper-case `P`, so no name's key (always
    /// lower case, ``GeoQR/PlayerName/key(_:)``) is ever the same, nobody signs in by it, and a
    /// new player may take the pseudonym for a name.
    static func nameKey(of player: String) -> String { "#forgotten \(player)" }

    /// Whether a `players` row's name key is a forgotten player's.
    static func isForgotten(nameKey: String) -> Bool { nameKey.hasPrefix("#forgotten ") }
}

extension EventSeal {
    /// The body with its private object replaced by the object's commitment, or nil when it
    /// holds none (no private part, or already only its commitment). The event's hash is the
    /// same for both.
    ///
    /// ```swift
    /// if let dropped = EventSeal.redacted(event.body) { /* UPDATE events SET body = dropped */ }
    /// ```
    static func redacted(_ body: String) -> String? {
        let reading = read(body)
        guard reading.format == format, reading.holdsPrivatePart else { return nil }
        return reading.hashedBody
    }
}
