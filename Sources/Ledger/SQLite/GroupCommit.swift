import Dispatch
import Foundation
import GRDB

/// Group commit: writes submitted at the same time share one transaction, so one fsync
/// acknowledges many of them. A write that the game refuses is undone alone and its caller
/// gets the error, while the rest of its batch commits. A fault of the file or the disk
/// (full, locked, read-only, I/O, corrupt) fails the whole batch instead: SQLite may already
/// have rolled the transaction back, and what ran after that would commit on its own. A
/// caller is answered only after its batch has committed (or failed as a whole).
///
/// A batch first runs its writes one after the other with no savepoint between them: the
/// game refuses almost every act before it writes anything, and a savepoint for each act
/// (two statements, and a copy of every page the act changes) cost about a tenth of a find.
/// When a refused write had already changed a row, the batch is rolled back and run again
/// with each write in its own savepoint, so the refused one is undone alone, as it always was.
///
/// ```swift
/// let committer = GroupCommit(writer: pool, path: path)
/// let find = try await committer.write { db in try appendFind(db) }
/// ```
final class GroupCommit: Sendable {
    private let writer: any DatabaseWriter
    private let path: String
    /// Batches on a queue of their own: SQLite's calls block.
    private let batcher: Batcher<PendingWrite>

    /// One submitted write: `run` executes inside the batch's transaction, in a savepoint of
    /// its own when `guarded`, and returns the code that answers its caller; `fail` answers it
    /// when the whole batch fails.
    private struct PendingWrite: Sendable {
        let run: @Sendable (Database, _ guarded: Bool) throws -> @Sendable () -> Void
        let fail: @Sendable (any Error) -> Void
    }

    /// Thrown when a write run without a savepoint was refused after it had changed rows:
    /// its batch must run again, guarded.
    private struct RefusedAfterWriting: Error {}

    init(writer: any DatabaseWriter, path: String, maxBatch: Int = 1024) {
        self.writer = writer
        self.path = path
        batcher = Batcher(maxBatch: maxBatch, .queue(DispatchQueue(label: "geoqr.ledger.group-commit")) { batch in
            Self.commit(batch, writer: writer, path: path)
        })
    }

    /// Runs `work` in the next batch and returns its result once the batch is durable.
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let pending = PendingWrite(
                run: { db, guarded in
                    let changesBefore = db.totalChangesCount
                    do {
                        nonisolated(unsafe) var result: T?
                        if guarded {
                            try db.inSavepoint {
                                result = try work(db)
                                return .commit
                            }
                        } else {
                            result = try work(db)
                        }
                        let value = result!
                        return { continuation.resume(returning: value) }
                    } catch let fault as DatabaseError where GroupCommit.isFault(fault) {
                        throw fault
                    } catch {
                        // Unguarded, a refusal may leave only what no statement changed: a
                        // statement that fails undoes itself, earlier ones of the act do not.
                        if !guarded, db.totalChangesCount != changesBefore { throw RefusedAfterWriting() }
                        return { continuation.resume(throwing: error) }
                    }
                },
                fail: { continuation.resume(throwing: $0) })
            batcher.submit(pending)
        }
    }

    /// Faults of the file or the machine, as opposed to a statement the data refused.
    static func isFault(_ error: DatabaseError) -> Bool {
        switch error.resultCode {
        case .SQLITE_FULL, .SQLITE_IOERR, .SQLITE_BUSY, .SQLITE_LOCKED, .SQLITE_READONLY, .SQLITE_CORRUPT,
             .SQLITE_NOTADB, .SQLITE_NOMEM, .SQLITE_CANTOPEN, .SQLITE_PROTOCOL, .SQLITE_PERM:
            return true
        default:
            return false
        }
    }

    /// Commits one batch and answers its callers.
    private static func commit(_ batch: [PendingWrite], writer: any DatabaseWriter, path: String) {
        do {
            let answers: [@Sendable () -> Void]
            do {
                answers = try writer.write { db in try batch.map { try $0.run(db, false) } }
            } catch is RefusedAfterWriting {
                // `write` rolled the transaction back: nothing of this batch is kept.
                answers = try writer.write { db in try batch.map { try $0.run(db, true) } }
            }
            answers.forEach { $0() }
        } catch {
            let translated = LedgerError.from(error, path: path)
            batch.forEach { $0.fail(translated) }
        }
    }
}
