import Foundation

/// The display name a player joins a hunt with: NFKC-normalised, 1–32 characters within
/// ``PlayerText/playerName``'s caps (bytes, combining marks), no control, format or
/// bidirectional characters (a ZWJ only inside an emoji, as in 👨‍👩‍👧), not shaped like a player
/// id (`P160`), unique in its hunt ignoring case, and not confusable with another player's name.
///
/// ```swift
/// let name = try PlayerName.check("  Ada ", taken: ["bob"])   // "Ada"
/// PlayerName.key("ADA") == PlayerName.key("ada")               // true
/// try PlayerName.checkNew("\u{410}da", among: ["Ada"], skeleton: icu)   // throws .nameConfusable
/// ```
public enum PlayerName {
    /// Long enough for "Troop 12 — Red Squirrels", short enough for a leaderboard row.
    public static let maxLength = 32

    /// The name as it will be shown (NFKC, surrounding spaces removed), or why it cannot be used.
    /// `taken` holds the ``key(_:)`` of every name already in the hunt.
    public static func check(_ raw: String, taken: Set<String>) throws(GameRuleViolation) -> String {
        // NFKC may lengthen a text (U+FDFA is 18 letters): cap what it is given first.
        guard raw.utf8.count <= 4 * PlayerText.playerName.maxBytes else {
            throw .textTooLarge(field: PlayerText.playerName.field, maxBytes: PlayerText.playerName.maxBytes)
        }
        let name = raw.precomposedStringWithCompatibilityMapping.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw .nameEmpty }
        guard name.count <= maxLength else { throw .nameTooLong(name.count) }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .nameHasControlCharacters
        }
        guard !hasInvisibleCharacters(name) else { throw .nameHasInvisibleCharacters }
        try PlayerText.playerName.check(name)
        guard !looksLikeID(name) else { throw .nameLooksLikeID(name) }
        guard !taken.contains(key(name)) else { throw .nameTaken(name) }
        return name
    }

    /// ``check(_:taken:)`` for a new player, who must also not pass for one already in the hunt:
    /// `skeleton` is Unicode's UTS #39 skeleton (the server's comes from ICU's spoof checker), and
    /// a name whose skeleton, as written or in lower case, equals an existing name's is refused
    /// with that name. A name whose skeleton is shaped like a player id (`Р160` with a Cyrillic
    /// Р) is refused as `P160` is.
    public static func checkNew(_ raw: String, among existing: [String], skeleton: (String) -> String)
        throws(GameRuleViolation) -> String {
        var register = NameRegister()
        for name in existing { register.add(name, skeleton: skeleton) }
        return try checkNew(raw, among: register, skeleton: skeleton)
    }

    /// ``checkNew(_:among:skeleton:)`` against names kept with their skeletons: no work for each
    /// existing name, so a join costs the same with 40,000 players as with 4.
    public static func checkNew(_ raw: String, among existing: NameRegister, skeleton: (String) -> String)
        throws(GameRuleViolation) -> String {
        let name = try check(raw, taken: [])
        guard !existing.holds(key: key(name)) else { throw .nameTaken(name) }
        guard !passesForID(name, skeleton: skeleton) else { throw .nameLooksLikeID(name) }
        if let twin = existing.name(withAnyOf: shapes(of: name, skeleton: skeleton)) {
            throw .nameConfusable(name, with: twin)
        }
        return name
    }

    /// What two names are compared by: case-folded, so "Ada" and "ADA" are one name.
    public static func key(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether `text` has the shape of a player id (`P` and digits, any case): such a name
    /// would be read as the id it spells wherever a player is named by "name or id".
    public static func looksLikeID(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 2, scalars[0] == "P" || scalars[0] == "p" else { return false }
        return scalars.dropFirst().allSatisfy { ("0"..."9").contains($0) }
    }

    /// Whether each character of `name` looks like the character of an id at its place (`P`,
    /// then digits): a skeleton maps `1` to `l` and `0` to `O`, so the name's skeleton is
    /// compared character by character with those of `P` and the digits.
    static func passesForID(_ name: String, skeleton: (String) -> String) -> Bool {
        guard name.count >= 2, let first = name.first else { return false }
        let p: Set<String> = [skeleton("P"), skeleton("p")]
        let digits = Set((0...9).map { skeleton(String($0)) })
        return p.contains(skeleton(String(first))) && name.dropFirst().allSatisfy { digits.contains(skeleton(String($0))) }
    }

    /// A format character (Cf: zero-width space, bidirectional controls and marks, soft
    /// hyphen…), a private-use or surrogate code point, or a line or paragraph separator. The
    /// joiner (U+200D) and tag characters are allowed inside an emoji, whose sequences need them.
    static func hasInvisibleCharacters(_ name: String) -> Bool {
        name.contains { character in
            let emoji = character.unicodeScalars.first.map { $0.value > 0x7F && $0.properties.isEmoji } ?? false
            return character.unicodeScalars.contains { scalar in
                switch scalar.properties.generalCategory {
                case .format: return !(emoji && (scalar == "\u{200D}" || (0xE0020...0xE007F).contains(scalar.value)))
                case .privateUse, .surrogate, .lineSeparator, .paragraphSeparator: return true
                default: return false
                }
            }
        }
    }

    /// The skeletons a name is compared by: as written (`I` and `l` share one) and in lower case
    /// (names ignore case, so `аda` in Cyrillic passes for `Ada`).
    static func shapes(of name: String, skeleton: (String) -> String) -> Set<String> {
        [skeleton(name), skeleton(key(name))]
    }
}

/// The names of a hunt's players with what a new name is compared by (``PlayerName/key(_:)`` and
/// skeletons), kept as players join so that checking a new name reads none of them again.
///
/// ```swift
/// var register = NameRegister()
/// register.add("Ada", skeleton: icu)
/// try PlayerName.checkNew("\u{410}da", among: register, skeleton: icu)   // throws .nameConfusable
/// ```
public struct NameRegister: Sendable {
    private var keys: Set<String> = []
    /// Each skeleton, as written and in lower case, with the first name that has it.
    private var shapes: [String: String] = [:]

    public init() {}

    public var count: Int { keys.count }

    public mutating func add(_ name: String, skeleton: (String) -> String) {
        guard keys.insert(PlayerName.key(name)).inserted else { return }
        for shape in PlayerName.shapes(of: name, skeleton: skeleton) where shapes[shape] == nil { shapes[shape] = name }
    }

    func holds(key: String) -> Bool { keys.contains(key) }

    func name(withAnyOf shapes: Set<String>) -> String? {
        shapes.lazy.compactMap { self.shapes[$0] }.first
    }
}
