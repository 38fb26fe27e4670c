import GRDB

extension SQLiteGameStore {
    public func events(after seq: Int64, limit: Int) async throws -> [LedgerEvent] {
        try await read { db in
            try LedgerEvent.fetchAll(db.cached("SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?"),
                                     arguments: [seq, limit])
        }
    }

    public func verify() async throws -> LedgerVerification {
        try await read { db in try LedgerVerifier.verify(db) }
    }
}
