import Foundation
import PostgresNIO
import Synchronization

/// The writes of a group commit's transaction, held back until something must see them: the
/// next read on the connection, or the commit. Each statement sent to PostgreSQL is a round trip
/// on the one writer connection, and an event makes several (its insert and its projection's);
/// held back, a batch's inserts go out together, as few statements as ``PostgresInsertMerging``
/// can make of them. A write the game refuses before anything of it was sent is dropped here,
/// with no savepoint and no round trip.
///
/// Only the group commit's writer uses a buffer, one statement after another: it is not shared.
final class PostgresWriteBuffer: @unchecked Sendable {
    private var pending: [ProjectionStatement] = []
    /// Statements added since the buffer was made, and of those, sent.
    private(set) var added = 0
    private(set) var sent = 0

    var isEmpty: Bool { pending.isEmpty }

    func add(_ statements: [ProjectionStatement]) {
        pending.append(contentsOf: statements)
        added += statements.count
    }

    /// Drops what was added after `mark` (a value of ``added``). False when some of it was
    /// already sent: then only rolling back can undo it.
    func discard(after mark: Int) -> Bool {
        guard sent <= mark else { return false }
        pending.removeLast(added - mark)
        added = mark
        return true
    }

    /// Drops whatever waits unsent (a guarded write's, after its savepoint was rolled back).
    func dropPending() {
        added -= pending.count
        pending.removeAll(keepingCapacity: true)
    }

    /// Sends what is held back, merged, in order.
    func flush(_ connection: PostgresConnection) async throws {
        guard !pending.isEmpty else { return }
        let statements = pending
        pending.removeAll(keepingCapacity: true)
        sent = added
        for statement in PostgresInsertMerging.merged(statements) {
            try await connection.query(PostgresSQL.query(numberedSQL: statement.sql, statement.arguments),
                                       logger: PostgresSQL.logger)
        }
    }
}

/// Turns a run of statements into fewer that do the same: consecutive one-row inserts
/// (`INSERT INTO t (…) VALUES (…)` and nothing after, which is what the projection writes for
/// finds, attempts, points, cards and events) become one statement: the rows of each text
/// together in one multi-row `VALUES`, the tables joined by data-modifying `WITH` clauses.
/// Any other statement (an update, a delete, an insert with `ON CONFLICT`) is sent as it is,
/// between the runs, so it sees everything written before it.
///
/// Why the order inside a run may change: the rows of a run are inserts of new rows, which no
/// other insert of the run reads; the derived tables have no foreign keys, and the one trigger
/// that reads (the chain head's, on `events`) sees the events in their own order, since one
/// text's rows keep theirs. A unique index refuses a duplicate whatever the order.
///
/// ```swift
/// let sent = PostgresInsertMerging.merged(statements)   // [(sql with $1…, arguments)]
/// ```
enum PostgresInsertMerging {
    /// Below PostgreSQL's 65,535 parameters a statement, with room for a batch's last event.
    static let maxArguments = 30_000

    static func merged(_ statements: [ProjectionStatement],
                       maxArguments: Int = maxArguments) -> [(sql: String, arguments: [LedgerValue])] {
        var out: [(sql: String, arguments: [LedgerValue])] = []
        var run: [(shape: InsertShape, statement: ProjectionStatement)] = []
        var runArguments = 0
        func endRun() {
            if !run.isEmpty { out.append(render(run)) }
            run.removeAll()
            runArguments = 0
        }
        for statement in statements {
            guard let shape = InsertShape.of(statement.sql) else {
                endRun()
                out.append((PostgresSQL.numbered(statement.sql), statement.arguments))
                continue
            }
            if runArguments + statement.arguments.count > maxArguments { endRun() }
            run.append((shape, statement))
            runArguments += statement.arguments.count
        }
        endRun()
        return out
    }

    /// One statement for a run: each text's rows in one `VALUES`, texts in the order they first
    /// came, parameters numbered through the whole statement.
    private static func render(_ run: [(shape: InsertShape, statement: ProjectionStatement)]) -> (sql: String, arguments: [LedgerValue]) {
        if run.count == 1 {
            return (PostgresSQL.numbered(run[0].statement.sql), run[0].statement.arguments)
        }
        var order: [String] = []
        var rows: [String: [(shape: InsertShape, statement: ProjectionStatement)]] = [:]
        for entry in run {
            if rows[entry.statement.sql] == nil { order.append(entry.statement.sql) }
            rows[entry.statement.sql, default: []].append(entry)
        }
        var arguments: [LedgerValue] = []
        arguments.reserveCapacity(run.reduce(0) { $0 + $1.statement.arguments.count })
        var inserts: [String] = []
        for sql in order {
            let entries = rows[sql]!
            var text = entries[0].shape.head
            for (index, entry) in entries.enumerated() {
                if index > 0 { text += ", " }
                entry.shape.appendRow(to: &text, firstParameter: arguments.count + 1)
                arguments.append(contentsOf: entry.statement.arguments)
            }
            inserts.append(text)
        }
        guard inserts.count > 1 else { return (inserts[0], arguments) }
        var sql = "WITH "
        for (index, insert) in inserts.dropLast().enumerated() {
            if index > 0 { sql += ", " }
            sql += "w\(index) AS (\(insert))"
        }
        sql += " " + inserts.last!
        return (sql, arguments)
    }

    /// A one-row insert split around its row: `INSERT INTO t (a, b) VALUES ` and `(?, 'x')`,
    /// the row cut at its `?`s.
    struct InsertShape {
        let head: String
        let rowPieces: [Substring]

        func appendRow(to text: inout String, firstParameter: Int) {
            text += rowPieces[0]
            for (offset, piece) in rowPieces.dropFirst().enumerated() {
                text += "$\(firstParameter + offset)"
                text += piece
            }
        }

        /// The shape of `sql`, or nil unless it is `INSERT INTO … VALUES (…)` with one row and
        /// nothing after it. The projection has a few texts, each seen thousands of times.
        static func of(_ sql: String) -> InsertShape? {
            if let known = cache.withLock({ $0[sql] }) { return known }
            let shape = parse(sql)
            cache.withLock { $0[sql] = shape }
            return shape
        }

        private static let cache = Mutex<[String: InsertShape?]>([:])

        static func parse(_ sql: String) -> InsertShape? {
            let text = sql.trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.uppercased().hasPrefix("INSERT INTO"), text.hasSuffix(")"),
                  let values = text.range(of: "VALUES", options: [.backwards, .caseInsensitive]) else { return nil }
            let row = text[values.upperBound...].drop { $0 == " " || $0 == "\n" }
            guard row.first == "(" else { return nil }
            // The row's parenthesis must close at the end, with no quote left open: one row.
            var depth = 0, quoted = false
            var pieces: [Substring] = []
            var pieceStart = row.startIndex
            for index in row.indices {
                let character = row[index]
                if character == "'" { quoted.toggle() }
                if quoted { continue }
                switch character {
                case "(": depth += 1
                case ")":
                    depth -= 1
                    if depth == 0 && index != row.index(before: row.endIndex) { return nil }
                case "?":
                    pieces.append(row[pieceStart..<index])
                    pieceStart = row.index(after: index)
                default: break
                }
            }
            guard depth == 0, !quoted else { return nil }
            pieces.append(row[pieceStart...])
            let head = String(text[..<values.upperBound]) + " "
            let upperHead = head.uppercased()
            guard !upperHead.contains("SELECT"), !upperHead.contains("ON CONFLICT"), !upperHead.contains("WITH") else { return nil }
            return InsertShape(head: head, rowPieces: pieces)
        }
    }
}
