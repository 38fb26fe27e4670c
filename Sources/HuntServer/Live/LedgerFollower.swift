import Foundation
import Ledger
import Logging

/// Follows the events table, the outbox every server reads: each time it is woken it reads
/// the events after the last one it handled, in seq order, forgets what each one changed and
/// sends its news to the streams open on this server (``ServedHunt/news(of:)``). So a find
/// made on one server reaches the players listening on every other, and a hunt stopped on
/// one stops on all.
///
/// It is woken by this server's own writes (``wake()``, after every game action), by the
/// store's notices of other processes' appends (PostgreSQL's `LISTEN`), which also bring the
/// news other servers publish (``ServerNews``), and, for writers no
/// notice tells of (another process on SQLite), every second (every 5 s with notices).
///
/// ```swift
/// let follower = LedgerFollower()
/// follower.start(for: session, notices: session.store.notices())
/// follower.wake()   // after this server appended
/// ```
final class LedgerFollower: Sendable {
    private let wakeups: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let logger = Logger(label: "geoqr.follower")
    private let tasks = TaskList()

    init() {
        (wakeups, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    deinit {
        continuation.finish()
        tasks.cancelAll()
    }

    /// Something may have been appended: read it soon.
    func wake() {
        continuation.yield()
    }

    /// Starts following from the ledger's head (earlier events are history, not news). Holds
    /// the session weakly: a session no longer used stops its follower.
    /// - parameter notices: the store's (``Ledger/GameStore/notices()``), nil when it has none.
    func start(for session: ServedHunt, notices: AsyncStream<StoreNotice>?) {
        let store = session.store, continuation = self.continuation
        // With notices the timer only covers a lost connection; without, it is how other
        // processes' appends are seen.
        var interval = Duration.seconds(1)
        if let notices {
            interval = .seconds(5)
            tasks.add(Task { [weak session] in
                for await notice in notices {
                    switch notice {
                    case .appended: continuation.yield()
                    case .news(let payload): await session?.heard(news: payload)
                    }
                }
            })
        }
        tasks.add(Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                continuation.yield()
            }
        })
        let wakeups = self.wakeups, logger = self.logger
        tasks.add(Task { [weak session] in
            var last: Int64?
            for await _ in wakeups {
                guard let session else { return }
                do {
                    guard let from = last else { last = try await store.headSeq(); continue }
                    last = try await Self.catchUp(session, after: from)
                } catch {
                    logger.warning("following the ledger: \(error)")
                }
            }
        })
        continuation.yield()
    }

    /// Handles every event after `seq`; answers the last one handled.
    private static func catchUp(_ session: ServedHunt, after seq: Int64) async throws -> Int64 {
        var last = seq
        while true {
            let events = try await session.store.events(after: last, limit: 1024)
            for event in events {
                await session.forget(whatChangedWith: event)
                if await session.live.listenerCount > 0 {
                    for (news, audience) in (try? await session.news(of: event)) ?? [] { await session.live.send(news, to: audience) }
                }
                last = event.seq
            }
            if events.count < 1024 { return last }
        }
    }
}

/// Tasks that end with their owner.
private final class TaskList: @unchecked Sendable {   // `tasks` only under `lock`
    private let lock = NSLock()
    private var tasks: [Task<Void, Never>] = []
    func add(_ task: Task<Void, Never>) { lock.withLock { tasks.append(task) } }
    func cancelAll() { lock.withLock { tasks.forEach { $0.cancel() } } }
}
