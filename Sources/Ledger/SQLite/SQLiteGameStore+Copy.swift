import Foundation
import GRDB

extension SQLiteGameStore: LedgerCopying {
    func chainHead() async throws -> (seq: Int64, hash: String) {
        try await read { db in
            let row = try Row.fetchOne(db, sql: "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1")
            return (row?["seq"] ?? 0, row?["hash"] ?? LedgerEvent.genesisHash)
        }
    }

    func credentialRecords() async throws -> [Credential] {
        try await read { db in try Credential.order(Column("seq")).fetchAll(db) }
    }

    func appendCopied(_ events: [LedgerEvent], credentials: [Credential]) async throws {
        try await write { db in
            var head: (seq: Int64, hash: String) = try Row.fetchOne(db, sql: "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1")
                .map { (seq: $0["seq"] as Int64, hash: $0["hash"] as String) } ?? (0, LedgerEvent.genesisHash)
            for event in events {
                guard event.seq == head.seq + 1, event.prevHash == head.hash else {
                    throw LedgerError.corrupt("event \(event.seq) does not follow the head of the chain (event \(head.seq))")
                }
                try event.insert(db)
                try StateProjection.apply(event, db)
                head = (event.seq, event.hash)
            }
            for credential in credentials { try credential.save(db) }
        }
    }
}
