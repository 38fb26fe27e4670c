/// How an act or a read asks a store for facts: SQL in the one text both stores run (``SQLDialect``
/// for what they spell differently), rows as ``LedgerRow``s.
///
/// SQLite's reader reads at once; PostgreSQL's answers from what it has read and throws
/// ``NeedFact`` for the rest, which its engine reads before running the act again.
protocol FactReader {
    var dialect: SQLDialect { get }
    func rows(_ sql: String, _ arguments: [LedgerValue]) throws -> [LedgerRow]
    /// What the rules need to judge a claim (the hot path: each store reads these its fastest
    /// way, PostgreSQL for a whole batch of claims at once).
    func claimFacts(_ key: ClaimKey) throws -> ClaimFacts
}

/// A fact an engine that reads asynchronously has not read yet: it reads it and runs the act again.
enum NeedFact: Error {
    case rows(FactQuery)
    case claim(ClaimKey)
}

/// One query with its arguments: what a fact is, to an engine that keeps those it has read.
struct FactQuery: Hashable, Sendable {
    let sql: String
    let arguments: [LedgerValue]
}

extension FactReader {
    func rows(_ sql: String, _ arguments: any LedgerValueConvertible...) throws -> [LedgerRow] {
        try rows(sql, arguments.map(\.ledgerValue))
    }

    func row(_ sql: String, _ arguments: any LedgerValueConvertible...) throws -> LedgerRow? {
        try rows(sql, arguments.map(\.ledgerValue)).first
    }
}
