import Foundation

/// A few threads of their own for work that takes a core for a long while (decoding a
/// picture, hashing a PIN with bcrypt), with a bounded queue in front of them.
///
/// Run on Swift's shared pool, such work held up every quick step of every other request (a
/// `/healthz`, another player's claim) for as long as it ran: six picture bombs at once kept
/// `/healthz` waiting 28 s, forty joins delayed it 2.2 s. Here heavy work waits in one queue
/// and runs on `threads` threads at a lower priority (nice 5), so the threads that read
/// requests and the shared pool always find a core. When `queueLimit` jobs already wait, a new
/// one is refused at once (``WorkerPoolError/full(pool:retryAfter:)``, a 503 with
/// `Retry-After` at the API) rather than queued behind work it would wait seconds for; and an
/// owner (a player) has at most one job queued or running at a time
/// (``WorkerPoolError/ownerBusy(pool:)``), so one phone cannot fill the queue.
///
/// ```swift
/// let pool = WorkerPool(name: "pictures", threads: 2, queueLimit: 128)
/// let codes = try await pool.run(for: "P3") { try decoder.decode(fileBytes: jpeg) }
/// ```
public final class WorkerPool: @unchecked Sendable {   // `waiting`, `owners` only under `condition`
    /// Named in errors and thread names (`geoqr.pictures.0`).
    public let name: String
    /// Threads that run jobs.
    public let threads: Int
    /// Jobs that may wait for a thread; one more is refused.
    public let queueLimit: Int

    private let condition = NSCondition()
    private var waiting: [() -> Void] = [], next = 0
    private var owners = Set<String>()
    private var running = 0

    /// Starts `threads` threads (at least one) at nice `niceness`. An absolute value, not one
    /// above the process's: the threads it must stay below, Swift's shared pool and NIO's
    /// event loops (started from it), run at the nice value libdispatch gives their quality of
    /// service (0 for the default), whatever the process was started with.
    public init(name: String, threads: Int, queueLimit: Int, niceness: Int32 = 5) {
        self.name = name
        self.threads = max(threads, 1)
        self.queueLimit = max(queueLimit, 0)
        for i in 0..<self.threads {
            let thread = Thread { [unowned self] in self.work(niceness: niceness) }
            thread.name = "geoqr.\(name).\(i)"
            thread.start()
        }
    }

    /// Jobs waiting for a thread now (not counting those running).
    public var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return waiting.count - next
    }

    /// Runs `job` on one of the pool's threads and hands back what it returns or throws.
    ///
    /// - parameter owner: whose job it is (a player id): while one of theirs is queued or
    ///   running, another is refused. Nil for work that has no owner.
    /// - throws: ``WorkerPoolError`` when the queue is full or the owner already has a job,
    ///   before `job` starts; else what `job` throws.
    public func run<Value: Sendable>(for owner: String? = nil,
                                     _ job: @escaping @Sendable () throws -> Value) async throws -> Value {
        let result = try await withCheckedThrowingContinuation {
            (done: CheckedContinuation<Result<Value, any Error>, any Error>) in
            condition.lock()
            defer { condition.unlock() }
            if waiting.count - next >= queueLimit, running >= threads {
                done.resume(throwing: WorkerPoolError.full(pool: name, retryAfter: retryAfter))
                return
            }
            if let owner {
                guard owners.insert(owner).inserted else {
                    done.resume(throwing: WorkerPoolError.ownerBusy(pool: name))
                    return
                }
            }
            waiting.append { [unowned self] in
                let result = Result { try job() }
                if let owner {
                    condition.lock()
                    owners.remove(owner)
                    condition.unlock()
                }
                done.resume(returning: result)
            }
            condition.signal()
        }
        return try result.get()
    }

    /// Seconds a refused caller is told to wait: about long enough for the queue to move.
    private var retryAfter: Int { max(1, min(30, queueLimit / (threads * 8))) }

    private func work(niceness: Int32) {
        // Below the threads that read requests and write answers: those wake for a moment
        // between long jobs, and each moment waited for a core is added to every answer. The
        // pool still has every core the rest of the time. (On Linux the nice value is a
        // thread's own, and 0 names the calling thread.)
        #if os(Linux)
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #endif
        while true {
            condition.lock()
            while next == waiting.count { condition.wait() }
            let job = waiting[next]
            next += 1
            if next == waiting.count || next >= 256 { waiting.removeFirst(next); next = 0 }
            running += 1
            condition.unlock()
            job()
            condition.lock()
            running -= 1
            condition.unlock()
        }
    }
}

/// Why a ``WorkerPool`` did not take a job.
public enum WorkerPoolError: Error, Equatable, CustomStringConvertible {
    /// Every thread is busy and `queueLimit` jobs already wait: try again in `retryAfter` s.
    case full(pool: String, retryAfter: Int)
    /// This owner already has a job queued or running.
    case ownerBusy(pool: String)

    public var description: String {
        switch self {
        case .full(let pool, let seconds): "the server is busy with other \(pool); try again in \(seconds) s"
        case .ownerBusy(let pool): "one of your \(pool) is still being worked on; send the next when it is answered"
        }
    }
}
