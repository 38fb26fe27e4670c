import GRDB
import GRDBSQLite

extension Database {
    /// Runs projection statements through the connection's statement cache.
    func run(_ statements: [ProjectionStatement]) throws {
        for statement in statements {
            try execute(try cachedStatement(sql: statement.sql), binding: statement.arguments)
        }
    }

    /// Binds `values` to `statement` and runs it, through SQLite's C interface: every event
    /// runs a few of these, and GRDB's arguments (an array of boxed values, checked by name,
    /// bound through nested closures) cost more than the insert they carry. Nothing else
    /// watches this connection's statements (no transaction observers), so GRDB is not told.
    func execute(_ statement: Statement, binding values: [LedgerValue]) throws {
        // The ledger's inserts, updates and deletes give no rows: one step runs each to its end.
        _ = try firstRow(statement, binding: values) { _ in () }
    }

    /// The first row `statement` gives with `values` bound, read by `read` from SQLite's
    /// statement handle (``SQLiteColumns``), or nil when it gives none: for the reads every
    /// claim makes before it is judged, where GRDB's rows cost more than the lookup.
    func firstRow<T>(_ statement: Statement, binding values: [LedgerValue],
                     _ read: (SQLiteColumns) throws -> T) throws -> T? {
        try stepping(statement, binding: values) { handle, step in
            try step() ? try read(SQLiteColumns(handle: handle)) : nil
        }
    }

    /// Every row `statement` gives with `values` bound, as ``LedgerRow``s (the columns' names
    /// shared by them all).
    func rows(_ statement: Statement, binding values: [LedgerValue]) throws -> [LedgerRow] {
        try stepping(statement, binding: values) { handle, step in
            let count = sqlite3_column_count(handle)
            var columns: [String: Int] = [:]
            for column in 0..<count where columns[String(cString: sqlite3_column_name(handle, column))] == nil {
                columns[String(cString: sqlite3_column_name(handle, column))] = Int(column)
            }
            let reading = SQLiteColumns(handle: handle)
            var rows: [LedgerRow] = []
            while try step() { rows.append(LedgerRow(columns: columns, values: (0..<count).map(reading.value))) }
            return rows
        }
    }

    /// Binds `values` to `statement`, hands `body` its handle and a step (true on a row, false
    /// at the end, SQLite's error thrown), and leaves the statement reset and unbound.
    private func stepping<T>(_ statement: Statement, binding values: [LedgerValue],
                             _ body: (OpaquePointer, () throws -> Bool) throws -> T) throws -> T {
        let handle = statement.sqliteStatement
        precondition(values.count == Int(sqlite3_bind_parameter_count(handle)),
                     "\(values.count) values for \(sqlite3_bind_parameter_count(handle)) parameters in \(statement.sql)")
        sqlite3_reset(handle)
        defer {
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
        }
        bind(values, to: handle)
        return try body(handle) {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default:
                throw DatabaseError(resultCode: ResultCode(rawValue: sqlite3_extended_errcode(self.sqliteConnection)),
                                    message: String(cString: sqlite3_errmsg(self.sqliteConnection)), sql: statement.sql)
            }
        }
    }

    private func bind(_ values: [LedgerValue], to handle: OpaquePointer) {
        for (offset, value) in values.enumerated() {
            let index = CInt(offset + 1)
            switch value {
            case .null: sqlite3_bind_null(handle, index)
            case .integer(let number): sqlite3_bind_int64(handle, index, number)
            case .real(let number): sqlite3_bind_double(handle, index, number)
            case .text(let text):
                // With its length: a Swift string may hold a NUL, where SQLite would stop.
                sqlite3_bind_text(handle, index, text, CInt(text.utf8.count), Self.transient)
            }
        }
    }

    /// SQLite's SQLITE_TRANSIENT: it copies the text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// The columns of the row a statement stands on, read through SQLite's C interface (see
/// ``Database/firstRow(_:binding:_:)``); valid only inside the reading closure.
struct SQLiteColumns {
    let handle: OpaquePointer

    func isNull(_ column: CInt) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }
    func integer(_ column: CInt) -> Int64 { sqlite3_column_int64(handle, column) }
    func bool(_ column: CInt) -> Bool { integer(column) != 0 }

    /// The column's value as it is stored.
    func value(_ column: CInt) -> LedgerValue {
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: .integer(integer(column))
        case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
        case SQLITE_NULL: .null
        default: text(column).map { .text($0) } ?? .null
        }
    }

    /// The column's text with every byte (its length from SQLite, not up to a NUL).
    func text(_ column: CInt) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
