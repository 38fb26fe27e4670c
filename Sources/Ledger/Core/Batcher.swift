import Dispatch
import Foundation

/// Items submitted from anywhere, handed on in batches by one drain at a time: the first item
/// submitted while nothing drains starts the drain, which takes what waits (up to `maxBatch`),
/// hands it on, and goes on until nothing waits. What is submitted meanwhile joins the next
/// batch, so under load a batch is as large as the time one takes: group commit in both stores
/// (one transaction, one flush, for every write that came while the last one committed) and a
/// server's news to the others (one NOTIFY for every item told while the last one was sent).
///
/// ```swift
/// let news = Batcher<String>(maxBatch: .max) { items in try? await store.publish(news: items.joined()) }
/// news.submit(#"{"name":"claim",…}"#)
/// ```
package final class Batcher<Item: Sendable>: Sendable {
    /// Where a drain runs.
    package enum Drain: Sendable {
        /// On a serial dispatch queue, handing each batch on synchronously (blocking work: SQLite).
        case queue(DispatchQueue, @Sendable ([Item]) -> Void)
        /// In a task, each batch awaited. `yieldFirst`: let the callers just answered send their
        /// next items before a batch is taken (they run on the same threads as the drain), or a
        /// batch is a handful of them each time.
        case task(yieldFirst: Bool, @Sendable ([Item]) async -> Void)
    }

    private let maxBatch: Int
    private let drain: Drain
    /// Guards `waiting` and `draining`. An NSLock (a pthread mutex) rather than
    /// Synchronization's Mutex: ThreadSanitizer sees a pthread mutex's ordering, while it took
    /// Mutex's futex-based lock for no lock at all and reported every batch as a race.
    private let lock = NSLock()
    nonisolated(unsafe) private var waiting: [Item] = []
    nonisolated(unsafe) private var draining = false

    package init(maxBatch: Int, _ drain: Drain) {
        precondition(maxBatch > 0)
        self.maxBatch = maxBatch
        self.drain = drain
    }

    /// Queues `item` for the next batch.
    package func submit(_ item: Item) {
        let start = lock.withLock {
            waiting.append(item)
            if draining { return false }
            draining = true
            return true
        }
        guard start else { return }
        switch drain {
        case .queue(let queue, let handle):
            queue.async {
                while let batch = self.take() { handle(batch) }
            }
        case .task(let yieldFirst, let handle):
            Task {
                while true {
                    if yieldFirst { await Task.yield() }
                    guard let batch = self.take() else { return }
                    await handle(batch)
                }
            }
        }
    }

    /// The next batch, or nil (and no drain running) when nothing waits.
    private func take() -> [Item]? {
        lock.withLock {
            if waiting.isEmpty {
                draining = false
                return nil
            }
            let taken = Array(waiting.prefix(maxBatch))
            waiting.removeFirst(taken.count)
            return taken
        }
    }
}
