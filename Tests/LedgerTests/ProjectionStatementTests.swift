import Foundation
import GRDB
@testable import Ledger
import Testing

/// Projection statements are bound through SQLite's C interface, not GRDB's arguments: every
/// kind of value must arrive as itself, and a statement SQLite refuses must fail as GRDB's
/// would, with its code and message.
@Suite("Projection statements on SQLite")
struct ProjectionStatementTests {
    @Test func everyKindOfValueIsStoredAsItselfAndARefusalIsADatabaseError() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (n INTEGER, r REAL, s TEXT UNIQUE, z)")
            for _ in 0..<2 {   // twice through the one cached statement: bindings do not linger
                try db.run([ProjectionStatement("INSERT INTO t VALUES (?, ?, ?, ?)",
                                                Int64.max, 0.1, "Café ☕ \u{0}x", Optional<String>.none)])
                // The text's every byte, the NUL too (GRDB reads text up to a NUL: ask for hex).
                let row = try #require(try Row.fetchOne(db, sql: "SELECT n, r, hex(s) AS s, z FROM t"))
                let hex = "Café ☕ \u{0}x".utf8.map { String(format: "%02X", $0) }.joined()
                #expect(row["n"] as Int64 == .max && row["r"] as Double == 0.1)
                #expect(row["s"] as String == hex && row["z"] == nil)
                try db.run([ProjectionStatement("UPDATE t SET s = ? WHERE n = ?", "done", Int64.max)])
                #expect(try String.fetchOne(db, sql: "SELECT s FROM t") == "done")
                try db.execute(sql: "DELETE FROM t")
            }
            try db.run([ProjectionStatement("INSERT INTO t VALUES (?, ?, ?, ?)", 7, -2.5, "Café ☕", true)])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT n, r, s, z, typeof(z) AS zt FROM t"))
            #expect(row["n"] as Int64 == 7 && row["r"] as Double == -2.5 && row["s"] as String == "Café ☕")
            #expect(row["z"] as Int64 == 1 && row["zt"] as String == "integer")
            #expect(throws: DatabaseError.self) {
                try db.run([ProjectionStatement("INSERT INTO t VALUES (?, ?, ?, ?)", 8, 0.0, "Café ☕", "x")])
            }
            do {
                try db.run([ProjectionStatement("INSERT INTO t VALUES (?, ?, ?, ?)", 8, 0.0, "Café ☕", "x")])
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.message?.contains("UNIQUE constraint failed: t.s") == true, "\(error)")
            }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 1)
        }
    }

    @Test func firstRowReadsTextNullsAndNoRowAsTheyAre() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (k TEXT, s TEXT, n INTEGER)")
            try db.run([ProjectionStatement("INSERT INTO t VALUES (?, ?, ?)", "a", "Café ☕ \u{0}x", 41),
                        ProjectionStatement("INSERT INTO t VALUES (?, ?, ?)", "b", Optional<String>.none, 0)])
            let statement = try db.cached("SELECT s, n, n = 41 FROM t WHERE k = ?")
            let a = try db.firstRow(statement, binding: [.text("a")]) { ($0.text(0), $0.integer(1), $0.bool(2), $0.isNull(0)) }
            #expect(a?.0 == "Café ☕ \u{0}x" && a?.1 == 41 && a?.2 == true && a?.3 == false)
            let b = try db.firstRow(statement, binding: [.text("b")]) { ($0.text(0), $0.bool(2), $0.isNull(0)) }
            #expect(b?.0 == nil && b?.1 == false && b?.2 == true)
            #expect(try db.firstRow(statement, binding: [.text("none")]) { $0.text(0) } == nil)
            #expect(throws: DatabaseError.self) {
                try db.firstRow(try db.cached("SELECT abs(-9223372036854775807 - ?)"), binding: [.integer(1)]) { $0.integer(0) }
            }
        }
    }
}
