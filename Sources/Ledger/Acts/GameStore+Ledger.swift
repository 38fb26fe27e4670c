import Foundation

extension GameStore {
    /// Events after `seq`, oldest first, at most `limit`.
    public func events(after seq: Int64, limit: Int) async throws -> [LedgerEvent] {
        try await query(LedgerRead { facts in
            try facts.rows("SELECT * FROM events WHERE seq > ? ORDER BY seq LIMIT ?", seq, limit).map(LedgerEvent.init(row:))
        })
    }

    /// The seq of the last event (0 for an empty ledger): where a server starts following.
    public func headSeq() async throws -> Int64 {
        try await query(LedgerRead { facts in
            try facts.row("SELECT CAST(COALESCE(MAX(seq), 0) AS BIGINT) AS seq FROM events")!["seq"]
        })
    }
}
