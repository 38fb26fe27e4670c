import Foundation
import Testing
import Workers

/// The bounded pool heavy work runs on (issue 24 §1): a full queue and a second job of the
/// same owner are refused at once, before the job starts; everything else runs.
@Suite struct WorkerPoolTests {
    /// A gate a job (on a pool thread) waits at until the test opens it. The test never blocks
    /// a thread of Swift's shared pool: it polls ``started`` with sleeps.
    final class Gate: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        private let lock = NSLock()
        private var entered = false
        var started: Bool { lock.withLock { entered } }
        func wait() { lock.withLock { entered = true }; semaphore.wait() }
        func open(_ count: Int) { for _ in 0..<count { semaphore.signal() } }
        func whenStarted() async throws { while !started { try await Task.sleep(for: .milliseconds(5)) } }
    }

    @Test func aFullQueueIsRefusedAtOnce() async throws {
        let pool = WorkerPool(name: "test jobs", threads: 1, queueLimit: 2)
        let gate = Gate()
        let running = Task { try await pool.run { gate.wait(); return 1 } }
        try await gate.whenStarted()   // the one thread is taken
        let queued = (0..<2).map { i in Task { try await pool.run { i + 10 } } }
        while pool.queued < 2 { try await Task.sleep(for: .milliseconds(5)) }
        await #expect(throws: WorkerPoolError.full(pool: "test jobs", retryAfter: 1)) {
            try await pool.run { 99 }
        }
        gate.open(1)
        #expect(try await running.value == 1)
        let values = [try await queued[0].value, try await queued[1].value]
        #expect(values == [10, 11])
        #expect(try await pool.run { 5 } == 5)   // room again
    }

    @Test func anOwnerHasOneJobAtATime() async throws {
        let pool = WorkerPool(name: "pictures", threads: 2, queueLimit: 8)
        let gate = Gate()
        let first = Task { try await pool.run(for: "P3") { gate.wait(); return "first" } }
        try await gate.whenStarted()
        await #expect(throws: WorkerPoolError.ownerBusy(pool: "pictures")) {
            try await pool.run(for: "P3") { "second" }
        }
        #expect(try await pool.run(for: "P4") { "another player's" } == "another player's")
        gate.open(1)
        #expect(try await first.value == "first")
        #expect(try await pool.run(for: "P3") { "next" } == "next")   // answered, so the next is taken
    }

    @Test func aJobsErrorReachesItsCaller() async {
        struct Broken: Error, Equatable {}
        let pool = WorkerPool(name: "test jobs", threads: 1, queueLimit: 1)
        await #expect(throws: Broken()) { try await pool.run(for: "P3") { () throws -> Int in throw Broken() } }
        #expect(pool.queued == 0)
    }
}
