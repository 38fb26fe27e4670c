import Foundation
import GeoQR
import PostgresNIO

/// The ``GameStore`` on PostgreSQL, for hunts that outgrow one machine: several `geoqr serve`
/// processes share one database. The tables, the event bodies, the hash chain and the
/// projection are the SQLite store's (a ledger verifies to the same head hash whichever store
/// wrote it); writes go through group commit (``PostgresGroupCommit``, which also says how
/// appends keep one order across processes); reads run on a pool of connections.
///
/// ```swift
/// let store = try await PostgresGameStore.open(try PostgresLocation("postgres://geoqr@127.0.0.1/hunts"))
/// let ada = try await store.join(hunt: "DEMO", name: "Ada", pin: "4321", team: nil, at: .now)
/// ```
public final class PostgresGameStore: GameStore {
    /// What a store can be tuned with; the defaults are what a hunt should run with.
    public struct Configuration: Sendable {
        /// bcrypt's cost (log2 rounds). 10 takes tens of milliseconds; tests use 4, the minimum.
        public var pinCost: UInt8
        public var pinPolicy: PINPolicy
        public var scoring: Scoring
        /// The most writes one transaction carries.
        public var maxBatch: Int
        /// The most connections this process opens to read; the writer has one more of its own.
        public var maxConnections: Int

        public init(pinCost: UInt8 = 10, pinPolicy: PINPolicy = PINPolicy(), scoring: Scoring = Scoring(),
                    maxBatch: Int = 1024, maxConnections: Int = 8) {
            self.pinCost = pinCost
            self.pinPolicy = pinPolicy
            self.scoring = scoring
            self.maxBatch = maxBatch
            self.maxConnections = maxConnections
        }
    }

    public let location: PostgresLocation
    public let configuration: Configuration
    /// Reads' connections.
    let client: PostgresClient
    /// Group commit's one connection, kept apart so the writer never waits behind reads for
    /// one: a batch is the work of many callers.
    let writer: PostgresClient
    let committer: PostgresGroupCommit
    private let running: Task<Void, Never>

    private init(location: PostgresLocation, configuration: Configuration) {
        self.location = location
        self.configuration = configuration
        var settings = location.clientConfiguration
        settings.options.maximumConnections = configuration.maxConnections
        client = PostgresClient(configuration: settings)
        settings.options.minimumConnections = 0
        settings.options.maximumConnections = 1
        writer = PostgresClient(configuration: settings)
        committer = PostgresGroupCommit(client: writer, location: location, maxBatch: configuration.maxBatch)
        running = Task { [client, writer] in
            await withDiscardingTaskGroup { group in
                group.addTask { await client.run() }
                group.addTask { await writer.run() }
            }
        }
    }

    deinit { running.cancel() }

    /// Connects, checks the schema and brings it up to date (creating the ledger when
    /// `create`), before anything is written.
    ///
    /// - throws: ``PostgresStoreError``: the server is unreachable, refuses the user or the
    ///   database, holds a ledger of another schema version, or (without `create`) none.
    public static func open(_ location: PostgresLocation, configuration: Configuration = Configuration(),
                            create: Bool = true) async throws -> PostgresGameStore {
        let store = PostgresGameStore(location: location, configuration: configuration)
        do {
            try await store.connect { sql in
                let applied = try await PostgresSchema.applied(sql)
                if applied == nil && !create { throw PostgresStoreError.noLedger("\(location)") }
                try PostgresSchema.check(applied ?? [], location: location)
                if applied?.count != PostgresSchema.migrations.count { try await PostgresSchema.migrate(sql) }
            }
        } catch {
            store.running.cancel()
            throw error
        }
        return store
    }

    /// Runs `work` on one connection made for it, with the connect timeout: the pool would
    /// wait for a server that is not there; this says so.
    private func connect(_ work: (PostgresSQL) async throws -> Void) async throws {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: try location.connectionConfiguration(),
                                                              id: 0, logger: PostgresSQL.logger)
        } catch {
            throw PostgresFailure.translate(error, location: location)
        }
        do {
            try await work(PostgresSQL(connection: connection, location: location))
            try? await connection.close()
        } catch {
            try? await connection.close()
            throw PostgresFailure.translate(error, location: location)
        }
    }

    /// Runs `work` in the next group commit; answers once it has committed. `claim` says
    /// which claim it records, if it does (a batch reads its claims' facts together).
    @discardableResult
    func write<T: Sendable>(claim: ClaimKey? = nil,
                            _ work: @escaping @Sendable (PostgresTransaction) async throws -> T) async throws -> T {
        do { return try await committer.write(claim: claim, work) } catch { throw PostgresFailure.translate(error, location: location) }
    }

    /// Reads on a pooled connection. Reads of several statements take one snapshot.
    func read<T: Sendable>(snapshot: Bool = false, _ work: @Sendable (PostgresSQL) async throws -> T) async throws -> T {
        let location = self.location
        do {
            return try await client.withConnection { connection in
                let sql = PostgresSQL(connection: connection, location: location)
                guard snapshot else { return try await work(sql) }
                try await sql.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                do {
                    let value = try await work(sql)
                    try await sql.execute("COMMIT")
                    return value
                } catch {
                    try? await sql.execute("ROLLBACK")
                    throw error
                }
            }
        } catch {
            throw PostgresFailure.translate(error, location: location)
        }
    }
}
