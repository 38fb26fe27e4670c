import Foundation

/// A value read from the ledger and kept for the requests that follow, until this server
/// changes it (``invalidate()``, called by the handler that wrote) or `maxAge` passes (for
/// changes made by another process: the `geoqr gm` commands). Requests that find it stale at
/// the same moment share one read. Read endpoints that every phone polls (the leaderboard,
/// the cache list) then cost a lookup, not a round trip to SQLite each.
///
/// ```swift
/// let standings = LedgerSnapshot(maxAge: .seconds(1)) { try await store.leaderboard(hunt: "DEMO") }
/// let board = try await standings.value()
/// await standings.invalidate()   // after a find
/// ```
actor LedgerSnapshot<Value: Sendable> {
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
        if let kept, kept.generation == generation, ContinuousClock.now - kept.at < maxAge { return kept.value }
        // A read started since the last change sees everything up to this call.
        if let reading, reading.generation == generation { return try await reading.task.value }
        let started = ContinuousClock.now, current = generation
        let task = Task { [read] in try await read() }
        reading = (task, current)
        do {
            let value = try await task.value
            if reading?.generation == current { reading = nil }
            if current == generation { kept = (value, current, started) }
            return value
        } catch {
            if reading?.generation == current { reading = nil }
            throw error
        }
    }

    /// Something changed: the next ``value()`` reads again.
    func invalidate() {
        generation += 1
    }
}
