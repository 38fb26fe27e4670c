/// "You are within 50 m of an unfound cache": told once per cache per sign-in session, when
/// the player's reported position comes that close to a cache they have not found and the
/// game master has not closed.
///
/// ```swift
/// Proximity.announces(found: false, disabled: false, distance: 32, within: Proximity.defaultDistance)   // true
/// ```
public enum Proximity {
    /// How close counts as near, in metres, unless the game master says otherwise.
    public static let defaultDistance = 50.0

    /// True when a cache at `distance` metres is worth telling the player about.
    public static func announces(found: Bool, disabled: Bool, distance: Double?, within: Double) -> Bool {
        guard !found, !disabled, let distance else { return false }
        return distance <= within
    }
}
