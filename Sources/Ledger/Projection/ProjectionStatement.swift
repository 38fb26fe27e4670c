import GRDB

/// A value bound to a ledger statement: the four kinds of value both stores keep (SQLite's
/// storage classes, PostgreSQL's `bigint`, `double precision` and `text`). A flag is an
/// integer, 0 or 1, in both.
enum LedgerValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    /// The same value for GRDB.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        }
    }
}

/// What can be bound to a ``ProjectionStatement``.
protocol LedgerValueConvertible: Sendable {
    var ledgerValue: LedgerValue { get }
}

extension LedgerValue: LedgerValueConvertible { var ledgerValue: LedgerValue { self } }
extension String: LedgerValueConvertible { var ledgerValue: LedgerValue { .text(self) } }
extension Int64: LedgerValueConvertible { var ledgerValue: LedgerValue { .integer(self) } }
extension Int: LedgerValueConvertible { var ledgerValue: LedgerValue { .integer(Int64(self)) } }
extension Double: LedgerValueConvertible { var ledgerValue: LedgerValue { .real(self) } }
extension Bool: LedgerValueConvertible { var ledgerValue: LedgerValue { .integer(self ? 1 : 0) } }
extension Optional: LedgerValueConvertible where Wrapped: LedgerValueConvertible {
    // A switch, not `map(\.ledgerValue)`: a key path through a generic type is built anew at
    // run time on every call, and this runs for every value of every event written.
    var ledgerValue: LedgerValue {
        switch self {
        case .some(let value): value.ledgerValue
        case .none: .null
        }
    }
}

/// One change an event makes to the derived tables, in SQL that SQLite and PostgreSQL both
/// run as written, with `?` placeholders (the PostgreSQL store numbers them). The projection
/// is made of these and does no I/O itself, so each store applies the very same changes.
///
/// ```swift
/// let statement = ProjectionStatement("UPDATE trades SET state = ? WHERE id = ?", "declined", "T9")
/// ```
struct ProjectionStatement: Sendable, Equatable {
    var sql: String
    var arguments: [LedgerValue]

    init(_ sql: String, _ arguments: any LedgerValueConvertible...) {
        self.sql = sql
        self.arguments = arguments.map { $0.ledgerValue }
    }
}
