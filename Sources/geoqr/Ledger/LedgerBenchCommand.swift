import ArgumentParser
import Foundation
import GRDB
import GeoQR
import Ledger

/// `geoqr ledger bench` (hidden): finds per second acknowledged by the ledger from many
/// concurrent tasks, next to SQLite's own commit rate on the same disk in the same run.
struct LedgerBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure recording throughput (for Benchmarks/ledger.sh).",
        discussion: """
        Records FINDS finds from TASKS concurrent tasks (one player each) into a new ledger \
        (WAL, synchronous=FULL), as fast as they are acknowledged or at --rate finds a second, \
        and tells how long finds waited for their acknowledgement; then times REFERENCE single-insert transactions with the same \
        settings, and verifies the ledger. Files go to DIR (default: a new temporary folder). \
        With --store postgres://…, the finds go to that PostgreSQL ledger instead, and the \
        reference is left to pgbench on the same server (Benchmarks/ledger.sh --postgres).
        """,
        shouldDisplay: false
    )

    @Option(help: "Concurrent tasks, one player each.")
    var tasks = 64

    @Option(help: "Finds to record in all.")
    var finds = 20_000

    @Option(help: ArgumentHelp("Finds a second in all, spread evenly over the tasks (default: as fast as acknowledged).",
                               valueName: "finds/s"))
    var rate: Double?

    @Option(help: "Single-insert transactions for SQLite's reference rate.")
    var reference = 3_000

    @Option(help: "Folder for the benchmark's files (default: a new temporary folder).")
    var dir: String?

    @Option(help: ArgumentHelp("Record into this PostgreSQL ledger instead of a new SQLite file (an empty database).",
                               valueName: "postgres://…"))
    var store: String?

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func validate() throws {
        guard tasks > 0, finds >= tasks, reference > 0 else {
            throw ValidationError("--tasks, --finds and --reference must be positive, with --finds at least --tasks")
        }
        if let rate, !(rate > 0 && rate <= 1_000_000) {
            throw ValidationError("--rate: \(rate) is not a rate between 0 and 1,000,000 finds a second")
        }
        if let store, !PostgresLocation.isURL(store) {
            throw ValidationError("--store: \(store) is not a postgres:// URL (the SQLite benchmark makes its own file)")
        }
    }

    func run() async throws {
        let folder = dir ?? NSTemporaryDirectory() + "geoqr-bench-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let store: any GameStore
        if let url = self.store {
            store = try await LedgerPlace(url).open(mustExist: false, pinCost: 4)
        } else {
            let sqlite = try SQLiteGameStore(path: folder + "/ledger.sqlite", configuration: .init(pinCost: 4, synchronousFull: true))
            guard try sqlite.synchronousLevel() == 2 else { throw ValidationError("the ledger is not at synchronous=FULL") }
            store = sqlite
        }
        let perTask = (finds + tasks - 1) / tasks
        let hunt = SyntheticHunt.make(caches: perTask)
        var players: [String] = []
        for t in 0..<tasks {
            players.append(try await store.join(hunt: hunt.id, name: "bench \(getpid()) \(t)", pin: "0000",
                                                team: nil, at: Date()).id)
        }
        let total = finds
        let clock = ContinuousClock()
        let start = clock.now
        let cpuBefore = Self.processCPUSeconds()
        // With --rate, find i of task t is due at (i × tasks + t) / rate seconds from the start,
        // and its wait is counted from then: a find the ledger kept waiting delays the next.
        let spacing = rate.map { 1 / $0 }
        let tasks = self.tasks
        let (recorded, waits) = try await withThrowingTaskGroup(of: (Int, [Duration]).self) { group in
            for (t, player) in players.enumerated() {
                group.addTask {
                    var count = 0
                    var waits: [Duration] = []
                    for i in 0..<perTask where t * perTask + i < total {
                        let cache = hunt.caches[i]
                        var due = clock.now
                        if let spacing {
                            due = start + .seconds(Double(i * tasks + t) * spacing)
                            if due > clock.now { try await Task.sleep(until: due, clock: clock) }
                        }
                        let claim = ClaimRecord(player: player, hunt: hunt.id, cache: cache.id, time: Date(),
                                                location: cache.coordinate, method: .camera, verdict: .claimable)
                        if case .found = try await store.record(claim, in: hunt) { count += 1 }
                        waits.append(clock.now - due)
                    }
                    return (count, waits)
                }
            }
            return try await group.reduce(into: (0, [Duration]())) { $0.0 += $1.0; $0.1 += $1.1 }
        }
        let seconds = Self.seconds(clock.now - start)
        let sorted = waits.map { Self.seconds($0) * 1000 }.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        let cpuPerFind = (Self.processCPUSeconds() - cpuBefore) / Double(max(recorded, 1)) * 1e6
        let sqliteRate = self.store == nil ? try Self.referenceCommitRate(path: folder + "/reference.sqlite", commits: reference) : nil
        let verification = try await store.verify()
        let result = BenchResult(tasks: tasks, finds: recorded, seconds: seconds,
                                 findsPerSecond: Double(recorded) / seconds, cpuMicrosecondsPerFind: cpuPerFind,
                                 waitMilliseconds: .init(p50: percentile(0.5), p99: percentile(0.99), max: sorted.last ?? 0),
                                 sqliteCommitsPerSecond: sqliteRate, ledgerIntact: verification.isIntact)
        if json {
            try printJSON(result)
        } else {
            print(String(format: "ledger: %d finds from %d tasks in %.2f s = %.0f finds/s acknowledged",
                         recorded, tasks, seconds, result.findsPerSecond))
            print(String(format: "ledger: %.0f µs of CPU a find (user and system, every thread of this process)", cpuPerFind))
            print(String(format: "ledger: a find acknowledged %.1f ms after it was due at the median, %.1f ms at p99, %.1f ms at most",
                         result.waitMilliseconds.p50, result.waitMilliseconds.p99, result.waitMilliseconds.max))
            if let sqliteRate {
                print(String(format: "sqlite: %.0f commits/s (one insert per transaction, WAL, synchronous=FULL)", sqliteRate))
            }
            print("ledger verify: \(verification.isIntact ? "intact" : "DAMAGED") (\(verification.events) events)")
        }
        if dir == nil { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// One insert per transaction, WAL, synchronous=FULL: the fsync ceiling of this disk.
    static func referenceCommitRate(path: String, commits: Int) throws -> Double {
        var config = Configuration()
        config.journalMode = .wal
        let queue = try DatabaseQueue(path: path, configuration: config)
        // After GRDB's WAL set-up, which chooses NORMAL.
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        guard try queue.read({ db in try Int.fetchOne(db, sql: "PRAGMA synchronous") }) == 2 else {
            throw ValidationError("could not set synchronous=FULL for the reference")
        }
        try queue.write { db in try db.execute(sql: "CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)") }
        let clock = ContinuousClock()
        let start = clock.now
        for i in 0..<commits {
            try queue.write { db in try db.execute(sql: "INSERT INTO t (v) VALUES (?)", arguments: ["row \(i)"]) }
        }
        return Double(commits) / seconds(clock.now - start)
    }

    /// User and system time of the whole process so far: what a find costs the machine,
    /// which other work on it does not change as it changes the rates.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }
}

struct BenchResult: Encodable {
    let tasks: Int
    let finds: Int
    let seconds: Double
    let findsPerSecond: Double
    /// The process's user and system time per find (on PostgreSQL, not the server's).
    let cpuMicrosecondsPerFind: Double
    /// From when each find was due (sent, or its time under --rate) to its acknowledgement.
    let waitMilliseconds: Percentiles
    struct Percentiles: Encodable { let p50, p99, max: Double }
    /// Nil on PostgreSQL, whose reference is pgbench's.
    let sqliteCommitsPerSecond: Double?
    let ledgerIntact: Bool
}
