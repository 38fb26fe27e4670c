/// The team a player joins for, as school and scout hunts play: a label like a name, with the
/// same length limit and no control characters. Teams are not unique: that is their point.
///
/// ```swift
/// try TeamName.check(" Red Squirrels ")   // "Red Squirrels"
/// try TeamName.check("")                  // nil: no team
/// ```
public enum TeamName {
    /// The team as it will be shown (surrounding spaces removed), nil for none, or why it
    /// cannot be used.
    public static func check(_ raw: String?) throws(GameRuleViolation) -> String? {
        guard let team = raw?.trimmingCharacters(in: .whitespaces), !team.isEmpty else { return nil }
        guard team.count <= PlayerName.maxLength,
              !team.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .badTeamName
        }
        return team
    }
}
