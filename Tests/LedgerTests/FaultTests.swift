import Foundation
import GRDB
import GeoQR
@testable import Ledger
import Testing

/// Faults of the file, not of the game: a ledger that is locked, full or corrupt answers with
/// one ``LedgerError`` and writes nothing half-way. (Read-only files and folders, and full
/// disks, are tested through the command line in CLITests.)
@Suite("Storage faults")
struct FaultTests {
    func eventCount(_ store: SQLiteGameStore) async throws -> Int {
        try await store.events(after: 0, limit: .max).count
    }

    @Test func aWriteLockHeldByAnotherConnectionIsLockedAndWritesNothing() async throws {
        let store = try makeStore(.init(pinCost: 4, busyTimeout: 0.2))
        defer { store.removeFolder() }
        _ = try await store.player("Ada")
        // Another connection takes the write lock on a thread of its own and holds it.
        let other = try DatabaseQueue(path: store.path)
        let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        Thread {
            try? other.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                locked.signal()
                release.wait()
                try db.execute(sql: "ROLLBACK")
            }
        }.start()
        locked.wait()
        await #expect(throws: LedgerError.locked(store.path)) { try await store.player("Bob") }
        release.signal()
        #expect(try await eventCount(store) == 1)
        #expect(try await store.verify().isIntact)
        _ = try await store.player("Bob")   // and it works again once the lock is gone
    }

    @Test func aFullDatabaseFailsWholeBatchesAndEveryAcknowledgedFindStays() async throws {
        let store = try makeStore(.init(pinCost: 4, synchronousFull: false))
        defer { store.removeFolder() }
        var players: [Player] = []
        for i in 0..<16 { players.append(try await store.player("P \(i)")) }
        // SQLite's own cap on the file's size: the next pages it needs are refused with SQLITE_FULL.
        try await store.pool.writeWithoutTransaction { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count")!
            try db.execute(sql: "PRAGMA max_page_count = \(pages + 2)")
        }
        var acknowledged: [String] = []
        var fullErrors = 0
        // Concurrent claims, so that batches carry several writes when the file fills up.
        for round in 0..<20 {
            let results = await withTaskGroup(of: Result<String, any Error>.self) { group in
                for p in players {
                    let cache = testHunt.caches[round % testHunt.caches.count].id
                    group.addTask {
                        do {
                            guard case .found(let find, _, _) = try await store.record(
                                claim(p.id, cache, minutes: Double(round)), in: testHunt) else { throw TestFailure("no find") }
                            return .success(find.id)
                        } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            for r in results {
                switch r {
                case .success(let id): acknowledged.append(id)
                case .failure(let error):
                    #expect(error as? LedgerError == .full(store.path), "\(error)")
                    fullErrors += 1
                }
            }
            if fullErrors > 0 { break }
        }
        #expect(fullErrors > 0, "the file never filled up")
        let report = try await store.verify()
        #expect(report.isIntact, "\(report.problem ?? "")")
        let stored = try await store.finds(hunt: "TEST", player: nil).map(\.id)
        #expect(Set(stored) == Set(acknowledged), "exactly the acknowledged finds are stored")
        #expect(try await eventCount(store) == 16 + acknowledged.count)
    }

    @Test func garbageInsteadOfALedgerIsCorruptAndNamesTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-garbage-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/ledger.sqlite"
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: path))
        #expect(throws: LedgerError.self) { _ = try SQLiteGameStore(path: path) }
        do { _ = try SQLiteGameStore(path: path) } catch {
            #expect("\(error)".contains(path), "\(error)")
            #expect(!"\(error)".contains("\n"))
        }
    }
}
