import Foundation
import GeoQR
@testable import Ledger
import PostgresNIO
import Testing

/// Group commit on PostgreSQL holds a batch's writes back and sends its one-row inserts merged
/// (``PostgresInsertMerging``), with no savepoint per write. These check the merged text, that
/// every kind of value arrives as itself through a multi-row insert, and that a write refused
/// before, by, or after sending leaves nothing while the rest of its batch commits.
@Suite("Group commit on PostgreSQL", .timeLimit(.minutes(2)))
struct PostgresGroupCommitTests {
    @Test func oneRowInsertsAreMergedByTableAndTheRestKeepTheirPlace() {
        let a = "INSERT INTO a (x, y) VALUES (?, 'card?')"
        let b = "INSERT INTO b (z)\n    VALUES (?)"
        let statements = [
            ProjectionStatement(a, 1), ProjectionStatement(b, "b1"), ProjectionStatement(a, 2),
            ProjectionStatement("UPDATE a SET x = ? WHERE x = ?", 3, 1),
            ProjectionStatement(a, 4),
            ProjectionStatement("INSERT INTO s (h, r) VALUES (?, ?) ON CONFLICT (h) DO UPDATE SET r = excluded.r", "h", 1),
            ProjectionStatement(b, "b2"), ProjectionStatement(b, "b3"),
        ]
        let merged = PostgresInsertMerging.merged(statements)
        #expect(merged.map(\.sql) == [
            "WITH w0 AS (INSERT INTO a (x, y) VALUES ($1, 'card?'), ($2, 'card?')) INSERT INTO b (z)\n    VALUES ($3)",
            "UPDATE a SET x = $1 WHERE x = $2",
            "INSERT INTO a (x, y) VALUES ($1, 'card?')",
            "INSERT INTO s (h, r) VALUES ($1, $2) ON CONFLICT (h) DO UPDATE SET r = excluded.r",
            "INSERT INTO b (z)\n    VALUES ($1), ($2)",
        ])
        #expect(merged.map(\.arguments) == [
            [.integer(1), .integer(2), .text("b1")], [.integer(3), .integer(1)], [.integer(4)],
            [.text("h"), .integer(1)], [.text("b2"), .text("b3")],
        ])
        // A run splits before it would pass the parameter limit; nothing is lost or reordered.
        let many = (0..<7).map { ProjectionStatement(a, $0) }
        let split = PostgresInsertMerging.merged(many, maxArguments: 3)
        #expect(split.map(\.arguments.count) == [3, 3, 1])
        #expect(split.flatMap(\.arguments) == (0..<7).map { .integer($0) })
    }

    @Test func onlyOneRowInsertsWithNothingAfterThemAreMerged() {
        for sql in ["INSERT INTO t (a) VALUES (?), (?)", "INSERT INTO t (a) SELECT ? FROM u",
                    "INSERT INTO t (a) VALUES (?) RETURNING a", "INSERT INTO t (a) VALUES (?) ON CONFLICT DO NOTHING",
                    "DELETE FROM t WHERE a = ?", "INSERT INTO t (a) VALUES ('(?')) x"] {
            #expect(PostgresInsertMerging.InsertShape.parse(sql) == nil, "\(sql)")
        }
        #expect(PostgresInsertMerging.InsertShape.parse("INSERT INTO t (a, b) VALUES (lower(?), '?)')") != nil)
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil || ProcessInfo.processInfo.environment["CI"] != nil))
    func everyKindOfValueArrivesThroughAMultiRowInsert() async throws {
        let store = try await PostgresGameStore.open(try await PostgresTestDatabase.make(), configuration: .init(pinCost: 4))
        try await store.tamper("CREATE TABLE t (k BIGINT PRIMARY KEY, n BIGINT, r DOUBLE PRECISION, s TEXT, z BIGINT)")
        let text = "it's ? 'quoted' \\ Café ☕ $1"
        try await store.committer.write { tx in
            for k in 0..<3 {
                tx.buffer.add([ProjectionStatement("INSERT INTO t (k, n, r, s, z) VALUES (?, ?, ?, ?, ?)",
                                                   k, Int64.max - Int64(k), 0.1 * Double(k + 1), text, Optional<Int64>.none)])
            }
        }
        let rows = try await store.read { sql in try await sql.rows("SELECT * FROM t ORDER BY k") }
        #expect(rows.count == 3)
        for (k, row) in rows.enumerated() {
            #expect(row["n"] as Int64 == .max - Int64(k))
            #expect(row["r"] as Double == 0.1 * Double(k + 1))
            #expect(row["s"] as String == text)
            #expect(row["z"] as Int64? == nil)
        }
    }

    struct Refused: Error, Equatable { let index: Int }

    enum Act: CaseIterable {
        case writes, refusesBeforeWriting, refusesAfterSending, failsOnAConstraint
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil || ProcessInfo.processInfo.environment["CI"] != nil))
    func refusedWritesLeaveNothingAndTheRestOfTheirBatchCommits() async throws {
        let store = try await PostgresGameStore.open(try await PostgresTestDatabase.make(),
                                                     configuration: .init(pinCost: 4, maxBatch: 16))
        try await store.tamper("CREATE TABLE t (v TEXT NOT NULL UNIQUE); INSERT INTO t VALUES ('taken')")
        let insert = "INSERT INTO t (v) VALUES (?)"
        let acts = (0..<120).map { Act.allCases[$0 % Act.allCases.count] }
        let answers = await withTaskGroup(of: (Int, Result<String, any Error>).self) { group in
            for (i, act) in acts.enumerated() {
                group.addTask {
                    do {
                        return (i, .success(try await store.committer.write { tx in
                            switch act {
                            case .writes:
                                tx.buffer.add([ProjectionStatement(insert, "kept \(i)")])
                            case .refusesBeforeWriting:
                                tx.buffer.add([ProjectionStatement(insert, "dropped \(i)")])
                                throw Refused(index: i)
                            case .refusesAfterSending:
                                tx.buffer.add([ProjectionStatement(insert, "undone \(i)")])
                                _ = try await tx.sql.row("SELECT count(*) AS n FROM t")   // sends it
                                throw Refused(index: i)
                            case .failsOnAConstraint:
                                tx.buffer.add([ProjectionStatement(insert, "taken")])
                            }
                            return "ok \(i)"
                        }))
                    } catch {
                        return (i, .failure(error))
                    }
                }
            }
            return await group.reduce(into: [Int: Result<String, any Error>]()) { $0[$1.0] = $1.1 }
        }
        for (i, act) in acts.enumerated() {
            switch (act, answers[i]) {
            case (.writes, .success(let answer)?):
                #expect(answer == "ok \(i)")
            case (.refusesBeforeWriting, .failure(let error as Refused)?), (.refusesAfterSending, .failure(let error as Refused)?):
                #expect(error == Refused(index: i))
            case (.failsOnAConstraint, .failure(let error as PSQLError)?):
                #expect(error.serverInfo?[.sqlState] == "23505")
            default:
                Issue.record("write \(i) (\(act)) was answered \(String(describing: answers[i]))")
            }
        }
        let rows = try await store.read { sql in try await sql.rows("SELECT v FROM t") }.map { $0["v"] as String }
        let kept = Set(acts.indices.filter { acts[$0] == .writes }.map { "kept \($0)" })
        #expect(Set(rows) == kept.union(["taken"]))
    }
}
