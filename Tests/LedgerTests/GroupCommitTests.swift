import Foundation
import GRDB
@testable import Ledger
import Testing

/// Group commit runs a batch's writes without savepoints first: these check that a write the
/// game refuses still leaves nothing behind, whether it was refused before writing, by a
/// statement that failed, or after it had written rows, and that the rest of its batch stays.
@Suite("Group commit", .timeLimit(.minutes(2)))
struct GroupCommitTests {
    struct Refused: Error, Equatable { let index: Int }

    /// How each of the concurrent writes behaves.
    enum Act: CaseIterable {
        case writes, refusesBeforeWriting, refusesAfterWriting, failsOnAConstraint
    }

    @Test func refusedWritesLeaveNothingAndTheRestOfTheirBatchCommits() async throws {
        let folder = NSTemporaryDirectory() + "geoqr-group-commit-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pool = try DatabasePool(path: folder + "/g.sqlite")
        try await pool.write { db in
            try db.execute(sql: "CREATE TABLE t (v TEXT NOT NULL UNIQUE); INSERT INTO t VALUES ('taken')")
        }
        let committer = GroupCommit(writer: pool, path: folder + "/g.sqlite", maxBatch: 16)
        let acts = (0..<120).map { Act.allCases[$0 % Act.allCases.count] }
        let answers = await withTaskGroup(of: (Int, Result<String, any Error>).self) { group in
            for (i, act) in acts.enumerated() {
                group.addTask {
                    do {
                        return (i, .success(try await committer.write { db in
                            switch act {
                            case .writes:
                                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["kept \(i)"])
                            case .refusesBeforeWriting:
                                throw Refused(index: i)
                            case .refusesAfterWriting:
                                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["undone \(i)"])
                                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["undone too \(i)"])
                                throw Refused(index: i)
                            case .failsOnAConstraint:
                                try db.execute(sql: "INSERT INTO t VALUES ('taken')")
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
            case (.refusesBeforeWriting, .failure(let error as Refused)?), (.refusesAfterWriting, .failure(let error as Refused)?):
                #expect(error == Refused(index: i))
            case (.failsOnAConstraint, .failure(let error as DatabaseError)?):
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
            default:
                Issue.record("write \(i) (\(act)) was answered \(String(describing: answers[i]))")
            }
        }
        let rows = try await pool.read { db in try String.fetchSet(db, sql: "SELECT v FROM t") }
        let kept = Set(acts.indices.filter { acts[$0] == .writes }.map { "kept \($0)" })
        #expect(rows == kept.union(["taken"]))
    }
}
