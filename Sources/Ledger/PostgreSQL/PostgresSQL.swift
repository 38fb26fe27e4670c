import Foundation
import PostgresNIO

/// One leased connection, spoken to in the ledger's terms: SQL with `?` placeholders (numbered
/// `$1…` here, so the projection's statements run as SQLite runs them), arguments as
/// ``LedgerValue``s, rows as ``LedgerRow``s.
///
/// ```swift
/// let rows = try await sql.rows("SELECT * FROM finds WHERE hunt = ? ORDER BY seq", "DEMO")
/// let find: String = rows[0]["id"]
/// ```
/// Errors come through as postgres-nio throws them; the store translates them at its edge
/// (``PostgresFailure``), after group commit has told faults from refusals.
///
/// In a group commit's transaction, writes wait in a ``PostgresWriteBuffer`` and every query
/// sends them first, so a read sees every write before it.
struct PostgresSQL: Sendable {
    let connection: PostgresConnection
    let location: PostgresLocation
    var buffer: PostgresWriteBuffer? = nil

    static let logger = Logger(label: "geoqr.ledger.postgres")

    func execute(_ sql: String, _ arguments: any LedgerValueConvertible...) async throws {
        try await run(sql, arguments.map(\.ledgerValue))
    }

    func rows(_ sql: String, _ arguments: any LedgerValueConvertible...) async throws -> [LedgerRow] {
        try await fetch(sql, arguments.map(\.ledgerValue))
    }

    func row(_ sql: String, _ arguments: any LedgerValueConvertible...) async throws -> LedgerRow? {
        try await fetch(sql, arguments.map(\.ledgerValue)).first
    }

    /// Runs the projection's statements for one event.
    func run(_ statements: [ProjectionStatement]) async throws {
        for statement in statements { try await run(statement.sql, statement.arguments) }
    }

    func run(_ sql: String, _ arguments: [LedgerValue]) async throws {
        try await flush()
        try await connection.query(Self.query(sql, arguments), logger: Self.logger)
    }

    func fetch(_ sql: String, _ arguments: [LedgerValue]) async throws -> [LedgerRow] {
        try await fetch(Self.query(sql, arguments))
    }

    /// The rows of a query made here (with arrays bound, say), after the writes held back.
    func fetch(_ query: PostgresQuery) async throws -> [LedgerRow] {
        try await flush()
        let rows = try await connection.query(query, logger: Self.logger).collect()
        guard let first = rows.first else { return [] }
        var columns: [String: Int] = [:]
        for (index, cell) in first.enumerated() { columns[cell.columnName] = index }
        return try rows.map { row in LedgerRow(columns: columns, values: try row.map(Self.value)) }
    }

    /// Ends the transaction, undoing it, with nothing held back sent first.
    func rollback() async throws {
        buffer?.dropPending()
        _ = try await connection.query("ROLLBACK", logger: Self.logger)
    }

    /// Sends the writes held back in this transaction, if any.
    func flush() async throws {
        if let buffer, !buffer.isEmpty { try await buffer.flush(connection) }
    }

    static func query(_ sql: String, _ arguments: [LedgerValue]) -> PostgresQuery {
        query(numberedSQL: numbered(sql), arguments)
    }

    /// A query whose parameters are already `$1`, `$2`…
    static func query(numberedSQL sql: String, _ arguments: [LedgerValue]) -> PostgresQuery {
        var binds = PostgresBindings(capacity: arguments.count)
        for argument in arguments {
            switch argument {
            case .null: binds.appendNull()
            case .integer(let value): binds.append(value)
            case .real(let value): binds.append(value)
            case .text(let value): binds.append(value)
            }
        }
        return PostgresQuery(unsafeSQL: sql, binds: binds)
    }

    /// `sql` with each `?` outside quotes turned into `$1`, `$2`…
    static func numbered(_ sql: String) -> String {
        guard sql.contains("?") else { return sql }
        var out = "", n = 0, quoted = false
        out.reserveCapacity(sql.utf8.count + 16)
        for character in sql {
            if character == "'" { quoted.toggle() }
            if character == "?" && !quoted {
                n += 1
                out += "$\(n)"
            } else {
                out.append(character)
            }
        }
        return out
    }

    static func value(_ cell: PostgresCell) throws -> LedgerValue {
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8: return .integer(try cell.decode(Int64.self))
        case .float4, .float8: return .real(try cell.decode(Double.self))
        case .bool: return .integer(try cell.decode(Bool.self) ? 1 : 0)
        default: return .text(try cell.decode(String.self))
        }
    }
}

/// PostgreSQL's and the connection's errors, as lines a user can act on.
enum PostgresFailure {
    static func translate(_ error: any Error, location: PostgresLocation) -> any Error {
        guard let psql = error as? PSQLError else { return error }
        if let state = psql.serverInfo?[.sqlState] {
            let message = psql.serverInfo?[.message] ?? "error \(state)"
            switch state {
            case "28P01", "28000": return PostgresStoreError.refused("\(location): the server refused the user or password (\(message))")
            case "3D000": return PostgresStoreError.refused("\(location): no such database (\(message))")
            case "42501": return PostgresStoreError.refused("\(location): permission denied (\(message))")
            default: return PostgresStoreError.storage("\(location): \(message)")
            }
        }
        switch psql.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed:
            let why = psql.underlying.map { "\($0)" } ?? "\(psql.code)"
            return PostgresStoreError.unreachable("\(location): no PostgreSQL server answers there (\(why))")
        case .sslUnsupported:
            return PostgresStoreError.refused("\(location): the server does not offer TLS (add ?sslmode=disable on a trusted network)")
        default:
            return PostgresStoreError.storage("\(location): \(psql.code)")
        }
    }

    /// Faults of the server or the connection, as opposed to a statement the data refused:
    /// they fail a whole group commit, since the transaction may be gone.
    static func isFault(_ error: any Error) -> Bool {
        if let psql = error as? PSQLError {
            guard let state = psql.serverInfo?[.sqlState] else { return true }
            return ["08", "53", "57", "58", "40", "XX", "25"].contains(String(state.prefix(2)))
        }
        if let store = error as? PostgresStoreError {
            switch store { case .unreachable, .refused: return true; default: return false }
        }
        return false
    }
}
