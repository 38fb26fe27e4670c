import Foundation

/// The team a player joins for, as school and scout hunts play: a label like a name, with the
/// same rules as one (NFKC, the length limit, ``PlayerText/teamName``'s byte and mark caps, no
/// control, format or bidirectional characters). Teams are not unique: that is their point.
///
/// ```swift
/// try TeamName.check(" Red Squirrels ")                      // "Red Squirrels"
/// try TeamName.check("")                                     // nil: no team
/// try TeamName.check("owls", listed: ["Foxes", "Owls"])     // "Owls", as the hunt spells it
/// try TeamName.check("Badgers", listed: ["Foxes", "Owls"])  // throws .teamNotInHunt
/// ```
public enum TeamName {
    /// The team as it will be shown (surrounding spaces removed), nil for none, or why it
    /// cannot be used.
    public static func check(_ raw: String?) throws(GameRuleViolation) -> String? {
        guard let raw, raw.utf8.count <= 4 * PlayerText.teamName.maxBytes else {
            if raw == nil { return nil }
            throw .textTooLarge(field: PlayerText.teamName.field, maxBytes: PlayerText.teamName.maxBytes)
        }
        let team = raw.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
        guard !team.isEmpty else { return nil }
        guard team.count <= PlayerName.maxLength,
              !team.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
              !PlayerName.hasInvisibleCharacters(team) else {
            throw .badTeamName
        }
        try PlayerText.teamName.check(team)
        return team
    }

    /// The team for a hunt that may list its teams (``Hunt/teams``): with a list, only its
    /// teams (compared ignoring case, answered as the list spells them); without one, any team
    /// ``check(_:)`` takes. No team is always allowed.
    public static func check(_ raw: String?, listed teams: [String]) throws(GameRuleViolation) -> String? {
        guard let team = try check(raw) else { return nil }
        guard !teams.isEmpty else { return team }
        let key = PlayerName.key(team)
        guard let listed = teams.first(where: { PlayerName.key($0) == key }) else {
            throw .teamNotInHunt(team, teams: teams)
        }
        return listed
    }
}
