import Dispatch
import Foundation
import GRDB

/// Copies the ledger's write-ahead log into the database file once a second, from a
/// connection of its own, so no commit does it.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the log past 1,000 pages:
/// that commit copies the log into the file and syncs it, and every act in the next group
/// commits waits behind it. At 8,500 phones one such commit took 157 ms, and five claims
/// waited for it (BENCHMARKS.md, fourth capacity sitting). Here the writer's automatic
/// checkpoint is off (`PRAGMA wal_autocheckpoint = 0`) and a passive checkpoint runs beside
/// the writer, which goes on appending to the log meanwhile; like the automatic one it never
/// waits for readers, so the log is reused once it has all been copied.
///
/// ```swift
/// let checkpoints = try Checkpointer(path: path, busyTimeout: 5)   // until it is released
/// ```
final class Checkpointer: @unchecked Sendable {   // `timer` is only set in init and cancelled in deinit
    /// How often the log is copied into the database.
    static let interval = DispatchTimeInterval.seconds(1)

    private let timer: any DispatchSourceTimer

    init(path: String, busyTimeout: TimeInterval) throws {
        var config = GRDB.Configuration()
        config.busyMode = .timeout(busyTimeout)
        config.label = "geoqr.ledger.checkpoint"
        let connection = try DatabaseQueue(path: path, configuration: config)
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "geoqr.ledger.checkpoint"))
        timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval, leeway: .milliseconds(100))
        timer.setEventHandler {
            // Busy (another checkpoint, a scrub's TRUNCATE): the next second tries again.
            _ = try? connection.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") }
        }
        timer.resume()
        self.timer = timer
    }

    deinit {
        timer.cancel()
    }
}
