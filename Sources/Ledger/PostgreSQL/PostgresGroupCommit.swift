import Foundation
import PostgresNIO

/// The transaction a batch of writes shares: the connection, and the head of the chain it
/// locked. Acts append through ``append(_:)``, as SQLite's acts append through `EventAppender`;
/// what they write waits in the connection's ``PostgresWriteBuffer``
/// until a read or the commit sends it.
final class PostgresTransaction {
    let sql: PostgresSQL
    /// The last event's seq and hash as this transaction has them.
    var head: (seq: Int64, hash: String)
    /// Set when the batch's one write was refused after some of it was sent: the transaction is
    /// rolled back, not committed.
    var refused = false
    /// The batch's claims, and their facts once read.
    var claims = ClaimFactsCache()

    init(sql: PostgresSQL, head: (seq: Int64, hash: String)) {
        self.sql = sql
        self.head = head
    }

    var buffer: PostgresWriteBuffer { sql.buffer! }

    /// Appends an act's event, linked to the head, and applies it to the derived tables.
    func append(_ event: NewEvent) throws -> AppendedEvent {
        let appended = try event.link(head)
        buffer.add([Self.insertion(appended.event)] + (try StateProjection.statements(for: appended.event, decoded: appended.body)))
        head = (appended.event.seq, appended.event.hash)
        return appended
    }

    /// Inserts an event as it is (a copied ledger's), moving the head on.
    func insert(_ event: LedgerEvent) {
        buffer.add([Self.insertion(event)])
        head = (event.seq, event.hash)
    }

    static func insertion(_ event: LedgerEvent) -> ProjectionStatement {
        ProjectionStatement("""
            INSERT INTO events (seq, time_ms, hunt, actor, kind, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, event.seq, event.timeMs, event.hunt, event.actor, event.kind, event.body, event.prevHash, event.hash)
    }
}

/// Group commit on PostgreSQL, as ``GroupCommit`` does it on SQLite: writes submitted at the
/// same time share one transaction (one WAL flush acknowledges them all), and a caller is
/// answered only once its batch has committed. A fault of the server or the connection fails
/// the whole batch.
///
/// Round trips are what a batch costs here (each statement is one, on the one writer
/// connection), so a batch runs in the fewest: its acts run one after another with no savepoint
/// between them, and their writes wait in a ``PostgresWriteBuffer`` until a read or the commit
/// sends them, merged. A write the game refuses before any of it was sent is dropped from the
/// buffer. Otherwise (a refusal after the act's own writes went out, or a statement PostgreSQL
/// refused, which aborts the transaction) the batch is rolled back and runs again guarded: a
/// savepoint for each act and its writes sent before the savepoint is released, so the refused
/// write is undone alone. A write alone in its batch needs no savepoint: its transaction is rolled
/// back instead.
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
    private let batcher: Batcher<PendingWrite>

    /// How a batch runs its writes.
    enum Mode {
        /// One write: refused, its transaction is rolled back.
        case alone
        /// No savepoints; writes sent as late as possible.
        case optimistic
        /// A savepoint for each write, its statements sent before it is released.
        case guarded
    }

    /// What running one write in a batch came to.
    enum Step {
        /// Its answer, given once the batch has committed.
        case answer(@Sendable () -> Void)
        /// The batch must be rolled back and run again guarded.
        case rerunGuarded
    }

    private struct PendingWrite: Sendable {
        /// The claim this write records, if it is one: the batch reads its claims' facts together.
        let claim: ClaimKey?
        let run: @Sendable (PostgresTransaction, Mode) async throws -> Step
        let fail: @Sendable (any Error) -> Void
    }

    init(client: PostgresClient, location: PostgresLocation, maxBatch: Int) {
        batcher = Batcher(maxBatch: maxBatch, .task(yieldFirst: true) { batch in
            await Self.commit(batch, client: client, location: location)
        })
    }

    /// Runs `work` in the next batch and returns its result once the batch has committed.
    /// `claim` says which claim it records, if it does.
    func write<T: Sendable>(claim: ClaimKey? = nil,
                            _ work: @escaping @Sendable (PostgresTransaction) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let pending = PendingWrite(
                claim: claim,
                run: { transaction, mode in
                    let head = transaction.head
                    let buffer = transaction.buffer
                    let mark = buffer.added
                    if mode == .guarded { try await transaction.sql.execute("SAVEPOINT act") }
                    do {
                        let value = try await work(transaction)
                        if mode != .optimistic { try await transaction.sql.flush() }
                        if mode == .guarded { try await transaction.sql.execute("RELEASE SAVEPOINT act") }
                        return .answer { continuation.resume(returning: value) }
                    } catch where PostgresFailure.isFault(error) {
                        throw error
                    } catch {
                        transaction.head = head
                        switch mode {
                        case .alone:
                            if !buffer.discard(after: mark) || error is PSQLError { transaction.refused = true }
                        case .optimistic:
                            // A statement PostgreSQL refused has aborted the transaction; writes
                            // already sent can only be undone by rolling back.
                            if error is PSQLError || !buffer.discard(after: mark) { return .rerunGuarded }
                        case .guarded:
                            buffer.dropPending()
                            try await transaction.sql.execute("ROLLBACK TO SAVEPOINT act")
                        }
                        return .answer { continuation.resume(throwing: error) }
                    }
                },
                fail: { continuation.resume(throwing: $0) })
            batcher.submit(pending)
        }
    }

    /// Commits one batch and answers its callers. The callers just answered run on the same
    /// threads as the drain: the batcher yields before it takes the next batch, so that they can
    /// send their next writes first.
    private static func commit(_ batch: [PendingWrite], client: PostgresClient, location: PostgresLocation) async {
        do {
            let answers = try await client.withConnection { connection in
                if batch.count == 1 { return try await Self.run(batch, mode: .alone, connection, location)! }
                if let answers = try await Self.run(batch, mode: .optimistic, connection, location) { return answers }
                return try await Self.run(batch, mode: .guarded, connection, location)!
            }
            answers.forEach { $0() }
        } catch {
            let translated = PostgresFailure.translate(error, location: location)
            batch.forEach { $0.fail(translated) }
        }
    }

    /// Runs `batch` in one transaction and commits it; nil when it was rolled back to run again
    /// guarded.
    private static func run(_ batch: [PendingWrite], mode: Mode, _ connection: PostgresConnection,
                            _ location: PostgresLocation) async throws -> [@Sendable () -> Void]? {
        let sql = PostgresSQL(connection: connection, location: location, buffer: PostgresWriteBuffer())
        try await sql.execute("BEGIN")
        do {
            guard let row = try await sql.row("SELECT seq, hash FROM chain_head WHERE id = 1 FOR UPDATE") else {
                throw PostgresStoreError.noLedger("\(sql.location)")
            }
            let transaction = PostgresTransaction(sql: sql, head: (row["seq"], row["hash"]))
            transaction.claims.batch = batch.map(\.claim)
            transaction.claims.enabled = mode != .guarded
            var answers: [@Sendable () -> Void] = []
            for (position, write) in batch.enumerated() {
                transaction.claims.position = position
                defer { if write.claim == nil { transaction.claims.forget() } }
                switch try await write.run(transaction, mode) {
                case .answer(let answer): answers.append(answer)
                case .rerunGuarded:
                    try await sql.rollback()
                    return nil
                }
            }
            if transaction.refused {
                try await sql.rollback()
                return answers
            }
            do {
                try await sql.flush()
            } catch where mode == .optimistic && !PostgresFailure.isFault(error) {
                try await sql.rollback()
                return nil
            }
            try await sql.execute("COMMIT")
            return answers
        } catch {
            try? await sql.rollback()
            throw error
        }
    }
}
