/// What differs between the SQL the two stores speak, as data: an act's query is one text, with
/// these fragments put in where SQLite and PostgreSQL spell a thing differently (as SQLKit's
/// `SQLDialect` keeps them). Placeholders are `?` in both (the PostgreSQL store numbers them).
///
/// ```swift
/// let sql = "SELECT id FROM items WHERE id IN \(facts.dialect.jsonTextList)"
/// ```
struct SQLDialect: Sendable, Equatable {
    /// The engine's name, for messages.
    let name: String
    /// A subquery giving the texts of a JSON array bound to one `?`.
    let jsonTextList: String
    /// A collation ordering text by its bytes, as the other store does.
    let bytewise: String

    static let sqlite = SQLDialect(name: "SQLite", jsonTextList: "(SELECT value FROM json_each(?))", bytewise: "BINARY")
    static let postgres = SQLDialect(name: "PostgreSQL", jsonTextList: "(SELECT jsonb_array_elements_text(?::jsonb))",
                                     bytewise: "\"C\"")
}
