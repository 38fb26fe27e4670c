/// PIN hashes that ledgers before migration "v3: credentials outside the chain" kept inside
/// `player-joined` bodies. The migration moved each to ``Credential`` and stored the body
/// without it; the event's hash still covers the body as it was written, so checking that hash
/// needs the PIN hash put back, byte for byte.
///
/// ```swift
/// if let (stored, pinHash) = try ChainedPINHash.split(body) {   // at migration
///     assert(try ChainedPINHash.restore(stored, pinHash: pinHash) == body)
/// }
/// ```
enum ChainedPINHash {
    /// The body without its PIN hash, and that hash; nil when the body holds none, or when
    /// putting it back would not give exactly `body` again (a body not in the canonical form,
    /// which then has to stay as it is for its event's hash to hold).
    static func split(_ body: String) throws -> (body: String, pinHash: String)? {
        var joined = try BodyCoding.decode(PlayerJoined.self, from: body)
        guard let pinHash = joined.pinHash else { return nil }
        joined.pinHash = nil
        let stored = try BodyCoding.encode(joined)
        guard try restore(stored, pinHash: pinHash) == body else { return nil }
        return (stored, pinHash)
    }

    /// The body as its event's hash covers it: `body` with `pinHash` back in its place. Bodies
    /// are canonical JSON (keys sorted, compact), so re-encoding puts it where it was.
    static func restore(_ body: String, pinHash: String) throws -> String {
        var joined = try BodyCoding.decode(PlayerJoined.self, from: body)
        joined.pinHash = pinHash
        return try BodyCoding.encode(joined)
    }
}
