import Foundation
import GRDB
import GeoQR

/// The embedded ``GameStore``: one SQLite file (WAL, `synchronous=FULL` by default), written
/// through group commit, read through a pool of readers.
///
/// ```swift
/// let store = try SQLiteGameStore(directory: data.path)        // <data>/ledger.sqlite
/// let tests = try SQLiteGameStore(path: tmp + "/l.sqlite",
///                                 configuration: .init(pinCost: 4))
/// ```
public final class SQLiteGameStore: GameStore {
    /// What a store can be tuned with; the defaults are what a hunt should run with.
    public struct Configuration: Sendable {
        /// bcrypt's cost (log2 rounds). 10 takes tens of milliseconds; tests use 4, the minimum.
        public var pinCost: UInt8
        public var pinPolicy: PINPolicy
        public var scoring: Scoring
        /// `synchronous=FULL`: an acknowledged act survives power loss. Off means NORMAL, which
        /// survives a crash of the program but may lose the last acts on power loss.
        public var synchronousFull: Bool
        /// The most writes one transaction carries.
        public var maxBatch: Int
        /// How long to wait for another process holding the file.
        public var busyTimeout: TimeInterval

        public init(pinCost: UInt8 = 10, pinPolicy: PINPolicy = PINPolicy(), scoring: Scoring = Scoring(),
                    synchronousFull: Bool = true, maxBatch: Int = 1024, busyTimeout: TimeInterval = 5) {
            self.pinCost = pinCost
            self.pinPolicy = pinPolicy
            self.scoring = scoring
            self.synchronousFull = synchronousFull
            self.maxBatch = maxBatch
            self.busyTimeout = busyTimeout
        }
    }

    /// The ledger's file name inside the data directory.
    public static let fileName = "ledger.sqlite"

    public let path: String
    public let configuration: Configuration
    let pool: DatabasePool
    let committer: GroupCommit

    /// Opens (creating if needed) `<directory>/ledger.sqlite`.
    public convenience init(directory: String, configuration: Configuration = Configuration()) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try self.init(path: directory + "/" + Self.fileName, configuration: configuration)
    }

    /// Opens (creating if needed) the ledger at `path` and brings its schema up to date.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.path = path
        self.configuration = configuration
        var config = Configuration.grdb(configuration)
        config.label = "geoqr.ledger"
        do {
            Self.makePrivate(path)
            pool = try DatabasePool(path: path, configuration: config)
            // GRDB turns WAL on with synchronous=NORMAL once the connection is open, after
            // prepareDatabase: the writer's durability is set again here, where it sticks.
            let synchronous = configuration.synchronousFull ? "FULL" : "NORMAL"
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
            try LedgerSchema.migrator.migrate(pool)
        } catch {
            throw LedgerError.from(error, path: path)
        }
        committer = GroupCommit(writer: pool, path: path, maxBatch: configuration.maxBatch)
    }

    /// The ledger holds bcrypt hashes of PINs: its file is made 0600 before SQLite opens it
    /// (SQLite would make it 0644 less the umask, and gives `-wal` and `-shm` the database's
    /// own mode), and an existing one readable by others is made 0600 with its companions.
    static func makePrivate(_ path: String) {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd); return }
        guard errno == EEXIST else { return }   // SQLite's open says why, in its own words
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] {
            var info = stat()
            guard lstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_mode & 0o077 != 0 else { continue }
            _ = chmod(file, 0o600)   // fails only on another user's file, which is theirs to keep as they like
        }
    }

    /// The writer's `PRAGMA synchronous`: 2 for FULL, 1 for NORMAL.
    public func synchronousLevel() throws -> Int {
        try pool.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") ?? -1 }
    }

    /// Runs `work` in the next group commit; answers once it is durable.
    @discardableResult
    func write<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await committer.write(work) } catch { throw LedgerError.from(error, path: path) }
    }

    /// Reads from a consistent snapshot.
    func read<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do { return try await pool.read(work) } catch { throw LedgerError.from(error, path: path) }
    }
}

extension SQLiteGameStore.Configuration {
    /// The GRDB configuration: WAL comes with the pool, durability is set on the writer once
    /// it is open (see `init(path:configuration:)`), waiting for other processes here.
    static func grdb(_ c: Self) -> GRDB.Configuration {
        var config = GRDB.Configuration()
        config.busyMode = .timeout(c.busyTimeout)
        config.prepareDatabase { db in
            // Every act runs in a savepoint of its batch's transaction, and SQLite keeps the
            // pages a savepoint changes in a sub-journal, which goes to a temporary file past
            // 64 KiB: a dozen page writes a find, a fifth of the writer's time. In memory, they
            // are copies. (Sorts of the readers' temporary b-trees stay in memory too.)
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
            // What is deleted or replaced (a forgotten player's name, dropped positions) is
            // overwritten with zeros in the file, not left in free space for a copy to show.
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        return config
    }
}
