import Foundation
import PostgresNIO

/// The transaction a batch of writes shares: the connection, and the head of the chain it
/// locked. Acts append through ``append(_:hunt:actor:at:body:)``, as SQLite's acts append
/// through `EventAppender`.
final class PostgresTransaction {
    let sql: PostgresSQL
    /// The last event's seq and hash as this transaction has them.
    var head: (seq: Int64, hash: String)
    /// Set when the batch's one write was refused: the transaction is rolled back, not committed.
    var refused = false

    init(sql: PostgresSQL, head: (seq: Int64, hash: String)) {
        self.sql = sql
        self.head = head
    }

    /// The seq the next event will get.
    var nextSeq: Int64 { head.seq + 1 }

    /// Appends an event whose body may use its own seq (ids like `F42` are made from it),
    /// linked to the head, and applies it to the derived tables.
    @discardableResult
    func append<Body: Encodable & Sendable>(_ kind: EventKind, hunt: String, actor: String, at time: Date,
                                            body makeBody: (Int64) throws -> Body) async throws -> LedgerEvent {
        let (event, value) = try LedgerEvent.following(head, kind: kind, hunt: hunt, actor: actor, at: time, body: makeBody)
        try await insert(event)
        try await sql.run(try StateProjection.statements(for: event, decoded: value))
        return event
    }

    /// Inserts an event as it is (a copied ledger's), moving the head on.
    func insert(_ event: LedgerEvent) async throws {
        try await sql.execute("""
            INSERT INTO events (seq, time_ms, hunt, actor, kind, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, event.seq, event.timeMs, event.hunt, event.actor, event.kind, event.body, event.prevHash, event.hash)
        head = (event.seq, event.hash)
    }
}

/// Group commit on PostgreSQL, as ``GroupCommit`` does it on SQLite: writes submitted at the
/// same time share one transaction (one WAL flush acknowledges them all), each in its own
/// savepoint, so one the game refuses is rolled back alone (a write alone in its batch needs no
/// savepoint: its transaction is rolled back instead, two round trips fewer). A fault of the
/// server or the connection fails the whole batch. A caller is answered only once its batch
/// has committed.
///
/// Total order across processes: each batch's transaction first locks the one row of
/// `chain_head` (`SELECT … FOR UPDATE`) and holds it to commit, so the writers of every server
/// append one batch at a time, each batch after the last committed one, reading the derived
/// tables as that one left them (READ COMMITTED takes a fresh snapshot per statement, after the
/// lock). A trigger on `events` moves the head on and refuses an event that does not follow it.
/// A row lock rather than an advisory lock, because it is the head itself: seq and hash come with
/// the lock, and the database checks every insert against them. Rather than serializable
/// transactions, because every append conflicts with every other: under SERIALIZABLE all but one
/// of the concurrent batches would abort and retry, where the lock queues them.
final class PostgresGroupCommit: Sendable {
    private let client: PostgresClient
    private let location: PostgresLocation
    private let maxBatch: Int
    /// Guards `pending` and `draining` (an NSLock, as in ``GroupCommit``, for ThreadSanitizer).
    private let lock = NSLock()
    nonisolated(unsafe) private var pending: [PendingWrite] = []
    nonisolated(unsafe) private var draining = false

    private struct PendingWrite: Sendable {
        let run: @Sendable (PostgresTransaction, _ alone: Bool) async throws -> @Sendable () -> Void
        let fail: @Sendable (any Error) -> Void
    }

    init(client: PostgresClient, location: PostgresLocation, maxBatch: Int) {
        self.client = client
        self.location = location
        self.maxBatch = maxBatch
    }

    /// Runs `work` in the next batch and returns its result once the batch has committed.
    func write<T: Sendable>(_ work: @escaping @Sendable (PostgresTransaction) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let pending = PendingWrite(
                run: { transaction, alone in
                    let head = transaction.head
                    if !alone { try await transaction.sql.execute("SAVEPOINT act") }
                    do {
                        let value = try await work(transaction)
                        if !alone { try await transaction.sql.execute("RELEASE SAVEPOINT act") }
                        return { continuation.resume(returning: value) }
                    } catch where PostgresFailure.isFault(error) {
                        throw error
                    } catch {
                        if alone {
                            transaction.refused = true
                        } else {
                            try await transaction.sql.execute("ROLLBACK TO SAVEPOINT act")
                            transaction.head = head
                        }
                        return { continuation.resume(throwing: error) }
                    }
                },
                fail: { continuation.resume(throwing: $0) })
            let startDrain = lock.withLock {
                self.pending.append(pending)
                if draining { return false }
                draining = true
                return true
            }
            if startDrain { Task { await self.drain() } }
        }
    }

    /// Commits batches until nothing is pending, one at a time.
    private func drain() async {
        while true {
            let batch: [PendingWrite] = lock.withLock {
                let taken = Array(pending.prefix(maxBatch))
                pending.removeFirst(taken.count)
                if taken.isEmpty { draining = false }
                return taken
            }
            if batch.isEmpty { return }
            do {
                let location = self.location
                let answers = try await client.withConnection { connection in
                    let sql = PostgresSQL(connection: connection, location: location)
                    try await sql.execute("BEGIN")
                    do {
                        guard let row = try await sql.row("SELECT seq, hash FROM chain_head WHERE id = 1 FOR UPDATE") else {
                            throw PostgresStoreError.noLedger("\(location)")
                        }
                        let transaction = PostgresTransaction(sql: sql, head: (row["seq"], row["hash"]))
                        var answers: [@Sendable () -> Void] = []
                        for write in batch { answers.append(try await write.run(transaction, batch.count == 1)) }
                        try await sql.execute(transaction.refused ? "ROLLBACK" : "COMMIT")
                        return answers
                    } catch {
                        try? await sql.execute("ROLLBACK")
                        throw error
                    }
                }
                answers.forEach { $0() }
            } catch {
                let translated = PostgresFailure.translate(error, location: location)
                batch.forEach { $0.fail(translated) }
            }
        }
    }
}
