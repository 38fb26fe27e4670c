import Foundation
import GRDB
import GeoQR
@testable import Ledger
import PostgresNIO
import Testing

/// The stores the store suites run against, as one parameterised suite: SQLite always, and
/// PostgreSQL when `GEOQR_TEST_POSTGRES` names a server (`scripts/test` starts one and sets it,
/// through `scripts/with-postgres`). Under CI it must be set: the PostgreSQL cases then fail
/// rather than vanish.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static let postgresURL = ProcessInfo.processInfo.environment["GEOQR_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

    /// The kinds the suites run with here.
    static let tested: [StoreKind] =
        postgresURL != nil || ProcessInfo.processInfo.environment["CI"] != nil ? allCases : [.sqlite]

    var testDescription: String { rawValue }
}

/// The server the PostgreSQL variants run on: the one the suites were told of, a PostgreSQL 15
/// (the version the schema and the deployment are written for), a new ledger on it empty and
/// verified. Without a server the test is skipped, and the test report says why and how to
/// run the variants.
@Suite struct PostgreSQLVariants {
    @Test(.enabled(if: StoreKind.tested.contains(.postgres),
                   "GEOQR_TEST_POSTGRES is not set, so the store suites ran on SQLite only: run `scripts/with-postgres swift test` (or scripts/test) to run them on PostgreSQL 15 too"))
    func theStoreSuitesRunOnAPostgreSQL15() async throws {
        let location = try await PostgresTestDatabase.make()
        let connection = try await PostgresConnection.connect(configuration: try location.connectionConfiguration(), id: 1,
                                                              logger: PostgresSQL.logger)
        let version = try await PostgresSQL(connection: connection, location: location).row("SHOW server_version")
        try? await connection.close()
        let major = (version?["server_version"] as String?)?.split(separator: ".").first
        #expect(major == "15", "PostgreSQL \(version.map { $0["server_version"] as String } ?? "?")")
        let store = try await PostgresGameStore.open(location)
        #expect(try await store.headSeq() == 0)
        #expect(try await store.verify().isIntact)
    }
}

/// A store under test, whichever kind, with what the tests do behind the store's back.
protocol TestLedger: GameStore {
    /// The first column of the first row `sql` selects (nil when there is no row).
    func scalar(_ sql: String) async throws -> LedgerValue?
    /// Every row `sql` selects, as the store's values.
    func rows(_ sql: String) async throws -> [[LedgerValue]]
    /// Runs raw SQL (statements separated by `;`), as a person with the database's shell would.
    func tamper(_ sql: String) async throws
    /// A second store on the same ledger, as another process would open it.
    func reopened() async throws -> any TestLedger
    /// Removes what `makeStore` made, where it can.
    func removeFolder()
}

extension TestLedger {
    /// `scalar` as an integer (a count).
    func count(_ sql: String) async throws -> Int64? {
        if case .integer(let n) = try await scalar(sql) { return n }
        return nil
    }
}

/// A new, empty store of `kind` with bcrypt at its cheapest: a temporary folder for SQLite, a
/// database of its own on the test server for PostgreSQL.
func makeStore(_ kind: StoreKind, _ configuration: SQLiteGameStore.Configuration = .init(pinCost: 4)) async throws -> any TestLedger {
    switch kind {
    case .sqlite:
        return try makeStore(configuration)
    case .postgres:
        let location = try await PostgresTestDatabase.make()
        return try await PostgresGameStore.open(location, configuration: .init(
            pinCost: configuration.pinCost, pinPolicy: configuration.pinPolicy, scoring: configuration.scoring,
            maxBatch: configuration.maxBatch, maxConnections: 4))
    }
}

/// Databases on the test server, one a test.
enum PostgresTestDatabase {
    /// A new empty database on the server `GEOQR_TEST_POSTGRES` names.
    static func make() async throws -> PostgresLocation {
        guard let url = StoreKind.postgresURL else {
            throw TestFailure("GEOQR_TEST_POSTGRES is not set: run the tests through scripts/with-postgres (scripts/test does)")
        }
        var location = try PostgresLocation(url)
        let name = "geoqr_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await run("CREATE DATABASE \(name)", on: location)
        location.database = name
        return location
    }

    /// Runs one statement on its own connection.
    static func run(_ statement: String, on location: PostgresLocation) async throws {
        let connection = try await PostgresConnection.connect(configuration: try location.connectionConfiguration(), id: 1,
                                                              logger: PostgresSQL.logger)
        defer { Task { try? await connection.close() } }
        try await PostgresSQL(connection: connection, location: location).execute(statement)
    }
}

extension SQLiteGameStore: TestLedger {
    func scalar(_ sql: String) async throws -> LedgerValue? {
        try await rows(sql).first?.first
    }

    func rows(_ sql: String) async throws -> [[LedgerValue]] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map { value in
                    switch value.storage {
                    case .null: .null
                    case .int64(let n): .integer(n)
                    case .double(let d): .real(d)
                    case .string(let s): .text(s)
                    case .blob(let data): .text("blob \(data.count) bytes")
                    }
                }
            }
        }
    }

    func reopened() async throws -> any TestLedger {
        try SQLiteGameStore(path: path, configuration: configuration)
    }
}

extension PostgresGameStore: TestLedger {
    func scalar(_ sql: String) async throws -> LedgerValue? {
        try await rows(sql).first?.first
    }

    func rows(_ sql: String) async throws -> [[LedgerValue]] {
        try await read { connection in try await connection.fetch(sql, []).map(\.values) }
    }

    func tamper(_ sql: String) async throws {
        try await read { connection in
            for statement in sql.split(separator: ";") where !statement.trimmingCharacters(in: .whitespaces).isEmpty {
                try await connection.execute(String(statement))
            }
        }
    }

    func reopened() async throws -> any TestLedger {
        try await PostgresGameStore.open(location, configuration: configuration, create: false)
    }

    /// The database stays until the test server stops (scripts/with-postgres removes it whole).
    func removeFolder() {}
}
