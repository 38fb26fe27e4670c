/// Where the cache id sits in a code, as regular expressions a web page can run: the offline
/// outbox names the cache of a claim it keeps with no network to ask the server. Made from the
/// codes' own definitions (``CacheCode``, ``TypedCode``, ``CodeAlphabet``), so the page never
/// writes a code format again; the tests read codes made by those types with these patterns.
///
/// Each pattern is run on the code upper-cased with its white space taken out; group 1 is the
/// cache id. The syntax is the part ECMAScript and ICU share.
///
/// ```swift
/// CodePatterns.cacheID   // [#"GQ[0-9]+\.[-0-9A-Z]+\.([-0-9A-Z]+)\."#, #"^([-0-9A-Z]+?)-?[0-9A-Z]{4}-?[0-9A-Z]{4}$"#]
/// ```
public enum CodePatterns {
    /// The signed payload, in its short form or inside its URL form, then the typed code.
    public static let cacheID: [String] = [signed, typed]

    static let id = "[-0-9A-Z]+"

    /// `GQ1.DEMO.A1.<MAC>` anywhere in the text (the URL form ends with it).
    static let signed = "\(CacheCode.prefix)[0-9]+\\.\(id)\\.(\(id))\\."

    /// `A1-7KQ2-M9XD`, hyphens optional (a player may type none); the halves are Crockford
    /// symbols, read loosely (O, I and L are typed for 0 and 1).
    static let typed: String = {
        let half = TypedCode.macCharacterCount / 2
        return "^(\(id)?)-?[0-9A-Z]{\(half)}-?[0-9A-Z]{\(half)}$"
    }()
}
