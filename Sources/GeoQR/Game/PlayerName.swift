/// The display name a player joins a hunt with: 1–32 characters, no control characters,
/// unique in its hunt ignoring case.
///
/// ```swift
/// let name = try PlayerName.check("  Ada ", taken: ["bob"])   // "Ada"
/// PlayerName.key("ADA") == PlayerName.key("ada")               // true
/// ```
public enum PlayerName {
    /// Long enough for "Troop 12 — Red Squirrels", short enough for a leaderboard row.
    public static let maxLength = 32

    /// The name as it will be shown (surrounding spaces removed), or why it cannot be used.
    /// `taken` holds the ``key(_:)`` of every name already in the hunt.
    public static func check(_ raw: String, taken: Set<String>) throws(GameRuleViolation) -> String {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw .nameEmpty }
        guard name.count <= maxLength else { throw .nameTooLong(name.count) }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .nameHasControlCharacters
        }
        guard !taken.contains(key(name)) else { throw .nameTaken(name) }
        return name
    }

    /// What two names are compared by: case-folded, so "Ada" and "ADA" are one name.
    public static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespaces).lowercased()
    }
}
