import Foundation

/// A value read from the ledger and kept for the requests that follow, until this server
/// changes it (``invalidate()``, called by the handler that wrote) or `maxAge` passes (for
/// changes made by another process: the `geoqr gm` commands). Requests that find it stale at
/// the same moment share one read. Read endpoints that every phone polls (the leaderboard,
/// the cache list) then cost a lookup, not a round trip to SQLite each.
///
/// Past `maxAge` the kept value is still answered while one read in the background fetches
/// the next, so no request waits on SQLite for what only another process could have changed;
/// after an ``invalidate()`` requests wait for the new value.
///
/// ```swift
/// let standings = CachedRead(maxAge: .seconds(1)) { try await store.leaderboard(hunt: "DEMO") }
/// let board = try await standings.value()
/// await standings.invalidate()   // after a find
/// ```
actor CachedRead<Value: Sendable> {
    private let maxAge: Duration
    private let read: @Sendable () async throws -> Value
    private var generation = 0
    private var kept: (value: Value, generation: Int, at: ContinuousClock.Instant)?
    private var reading: (task: Task<Value, any Error>, generation: Int)?

    init(maxAge: Duration, read: @escaping @Sendable () async throws -> Value) {
        self.maxAge = maxAge
        self.read = read
    }

    /// The value as of this call or later: never from before an ``invalidate()`` that returned.
    func value() async throws -> Value {
        if let kept, kept.generation == generation {
            if ContinuousClock.now - kept.at >= maxAge, reading == nil { _ = startReading() }
            return kept.value
        }
        // A read started since the last change sees everything up to this call.
        if let reading, reading.generation == generation { return try await reading.task.value }
        return try await startReading().value
    }

    /// Something changed: the next ``value()`` reads again.
    func invalidate() {
        generation += 1
    }

    /// One read of the ledger, kept when it ends if nothing changed meanwhile.
    private func startReading() -> Task<Value, any Error> {
        let started = ContinuousClock.now, current = generation
        let task = Task { [read] in
            do {
                let value = try await read()
                self.finished(current, value: value, at: started)
                return value
            } catch {
                self.finished(current, value: nil, at: started)
                throw error
            }
        }
        reading = (task, current)
        return task
    }

    private func finished(_ generation: Int, value: Value?, at started: ContinuousClock.Instant) {
        if reading?.generation == generation { reading = nil }
        if let value, generation == self.generation { kept = (value, generation, started) }
    }
}
