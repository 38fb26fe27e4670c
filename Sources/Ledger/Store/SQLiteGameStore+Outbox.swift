import GRDB

extension SQLiteGameStore {
    public func headSeq() async throws -> Int64 {
        try await read { db in try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(seq), 0) FROM events") ?? 0 }
    }

    /// SQLite cannot tell one process of another's writes: nil (see ``GameStore/notices()``).
    public func notices() -> AsyncStream<StoreNotice>? { nil }

    /// One server on one file: no one else to tell.
    public func publish(news: String) async throws {}
}
