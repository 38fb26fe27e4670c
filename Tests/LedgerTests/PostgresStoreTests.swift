import Foundation
import GeoQR
@testable import Ledger
import Testing

/// What only the database can hold to: appends from several processes in one order, the
/// append-only rule, and opening refused with one line on bad input, nothing written (issue 15).
@Suite("The ledger's database rules", .timeLimit(.minutes(5)))
struct LedgerDatabaseTests {
    @Test(arguments: StoreKind.tested)
    func eventsCannotBeChangedOrRemoved(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        try await store.found(store.player("Ada"), "A1")
        for sql in ["UPDATE events SET actor = 'gm' WHERE seq = 1", "DELETE FROM events WHERE seq = 2", "DELETE FROM events"]
            + (kind == .postgres ? ["TRUNCATE events"] : []) {
            await #expect(throws: (any Error).self, "\(sql)") { try await store.tamper(sql) }
        }
        #expect(try await store.count("SELECT COUNT(*) FROM events") == 2)
        #expect(try await store.verify().isIntact)
    }

    /// Two stores on one ledger are two processes to the database: their appends interleave
    /// into one chain with no gap, no fork and no lost act.
    @Test(arguments: StoreKind.tested)
    func twoProcessesAppendInOneOrder(_ kind: StoreKind) async throws {
        let first = try await makeStore(kind)
        defer { first.removeFolder() }
        let second = try await first.reopened()
        let players = 12, cachesEach = 4
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<players {
                let store: any GameStore = i % 2 == 0 ? first : second
                group.addTask {
                    let p = try await store.player("Player \(i)")
                    for cache in testHunt.caches.prefix(cachesEach) {
                        try await store.found(p, cache.id, minutes: Double(i))
                    }
                }
            }
            try await group.waitForAll()
        }
        let report = try await second.verify()
        #expect(report.isIntact, "\(report.problem ?? "")")
        #expect(report.events == players * (1 + cachesEach))
        #expect(try await first.verify() == report)
        #expect(try await first.count("SELECT COUNT(*) FROM finds") == Int64(players * cachesEach))
        #expect(try await first.count("SELECT COUNT(*) FROM finds WHERE first_to_find = 1") == Int64(cachesEach),
                "first to find is decided in one order for everyone")
    }

    /// Writes submitted together share a transaction (group commit); one the game refuses is
    /// rolled back alone, and the others in its batch are kept.
    @Test(arguments: StoreKind.tested)
    func aRefusedActLeavesTheRestOfItsBatch(_ kind: StoreKind) async throws {
        let store = try await makeStore(kind)
        defer { store.removeFolder() }
        let ada = try await store.player("Ada")
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<40 {
                group.addTask {
                    // Even: a real player's claim; odd: a player who never joined, refused.
                    let player = i % 2 == 0 ? ada.id : "P\(900 + i)"
                    return (try? await store.record(claim(player, testHunt.caches[i / 2 % 4].id, minutes: Double(i)),
                                                    in: testHunt)) != nil
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 20)
        #expect(try await store.count("SELECT COUNT(*) FROM finds") == 4)
        let report = try await store.verify()
        #expect(report.isIntact && report.events == 5, "\(report)")
    }
}

/// Opening a PostgreSQL ledger on bad input: one line that says what is wrong, nothing written.
@Suite("Opening a PostgreSQL ledger", .enabled(if: StoreKind.tested.contains(.postgres)), .timeLimit(.minutes(5)))
struct PostgresOpenTests {
    static func server() throws -> PostgresLocation {
        try PostgresLocation(try #require(StoreKind.postgresURL))
    }

    @Test func badURLsAreNamed() {
        for (url, words) in [("postgres://", "names no user"), ("postgres://ada@host", "names no database"),
                             ("postgres://ada@/hunts", "names no host"), ("postgres://ada@h/db?sslmode=maybe", "sslmode"),
                             ("postgres://ada@h/db?colour=red", "unknown parameter colour"),
                             ("postgres://ada:s3cret@h:5432/db?colour=red", "postgres://ada:***@h")] {
            #expect(throws: PostgresStoreError.self) { try PostgresLocation(url) }
            do { _ = try PostgresLocation(url) } catch {
                #expect(error.description.contains(words), "\(url): \(error)")
                #expect(!error.description.contains("s3cret") && !error.description.contains("\n"))
            }
        }
    }

    @Test func ipv6AddressesAndSocketsAreRead() throws {
        let v6 = try PostgresLocation("postgres://geoqr:pw@[::1]:5433/hunts?sslmode=disable")
        #expect(v6.host == "::1" && v6.port == 5433 && v6.tls == .disable)
        #expect(v6.description == "postgres://geoqr@[::1]:5433/hunts")
        let socket = try PostgresLocation("postgres://geoqr@/hunts?host=/run/postgresql")
        #expect(socket.socketFolder == "/run/postgresql" && socket.database == "hunts")
    }

    @Test func anUnreachableServerIsNamed() async throws {
        var location = try Self.server()
        location.port = 1   // nothing listens on port 1
        let error = await #expect(throws: PostgresStoreError.self) { try await PostgresGameStore.open(location) }
        guard case .unreachable(let why) = error else { throw TestFailure("\(String(describing: error))") }
        #expect(why.hasPrefix("postgres://geoqr@127.0.0.1:1/geoqr: no PostgreSQL server answers there"))
        #expect(!why.contains("\n") && !why.contains(location.password ?? "-"))
    }

    @Test func wrongCredentialsAndMissingDatabasesAreRefused() async throws {
        var wrongPassword = try Self.server()
        wrongPassword.password = "not-the-password"
        let refused = await #expect(throws: PostgresStoreError.self) { try await PostgresGameStore.open(wrongPassword) }
        #expect(refused?.description.contains("refused the user or password") == true, "\(String(describing: refused))")
        var missing = try Self.server()
        missing.database = "no_such_hunts"
        let absent = await #expect(throws: PostgresStoreError.self) { try await PostgresGameStore.open(missing) }
        #expect(absent?.description.contains("no such database") == true, "\(String(describing: absent))")
    }

    @Test func anotherSchemaVersionIsRefusedAndNothingIsWritten() async throws {
        let store = try await makeStore(.postgres)
        try await store.player("Ada")
        try await store.tamper("INSERT INTO geoqr_migrations (position, name) VALUES (99, 'v9: from a later geoqr')")
        let location = try #require(store as? PostgresGameStore).location
        let error = await #expect(throws: PostgresStoreError.self) { try await PostgresGameStore.open(location) }
        #expect(error?.description.contains(#"migration "v9: from a later geoqr" is not one this geoqr knows"#) == true,
                "\(String(describing: error))")
        #expect(try await store.count("SELECT COUNT(*) FROM events") == 1)
    }

    @Test func anEmptyDatabaseHasNoLedgerUntilOneIsMade() async throws {
        let location = try await PostgresTestDatabase.make()
        await #expect(throws: PostgresStoreError.noLedger("\(location)")) {
            try await PostgresGameStore.open(location, create: false)
        }
        let made = try await PostgresGameStore.open(location)
        #expect(try await made.verify() == LedgerVerification(events: 0, headHash: LedgerEvent.genesisHash))
        _ = try await PostgresGameStore.open(location, create: false)
    }
}
