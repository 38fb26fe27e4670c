import Foundation
import NIOCore

/// What one open stream has still to write: news in order (each already encoded, and shared
/// with every other stream it went to), and the latest digest of others' finds, standings and
/// rank, each of which replaces the one before it while it waits. The stream's writer takes everything waiting at
/// once (``next(after:)``) and writes it as one buffer.
///
/// A phone too slow to keep up loses only what it no longer needs: a newer standings replaces an
/// older one that was never written. Digests of finds wait up to ``digestsKept`` (two seconds
/// of them); past that the oldest goes (the newer's `through` covers its finds, their count is
/// lost). News of the ledger is never dropped: past ``limit`` waiting
/// the mailbox closes, the stream ends, and the browser reconnects with its last id and reads
/// what it missed from the ledger (``LiveController``). News the ledger does not hold (a
/// proximity hint, a heartbeat) is dropped oldest first instead.
///
/// Posting does not wake the writer: ``LiveEvents`` wakes the mailboxes it posted to at their
/// lane's turn, or at most every so often under a burst, so a rush of finds costs each stream
/// one write per round, not one per find.
///
/// ```swift
/// let box = LiveMailbox(limit: 64)
/// box.post(event)
/// box.wake()
/// while let (bytes, last) = await box.next(after: last) { try await writer.write(bytes) }
/// ```
public final class LiveMailbox: Sendable {
    private struct Waiting {
        var news: [LiveEvent] = []
        var finds: [LiveEvent] = []
        var standings: LiveEvent?
        var rank: LiveEvent?
        var closed = false
        var writer: CheckedContinuation<Void, Never>?

        var isEmpty: Bool { news.isEmpty && finds.isEmpty && standings == nil && rank == nil }

        /// Keeps a digest of finds, dropping the oldest past ``LiveMailbox/digestsKept``.
        mutating func keep(digest: LiveEvent) {
            if finds.count >= LiveMailbox.digestsKept { finds.removeFirst() }
            finds.append(digest)
        }
    }

    /// How many pieces of news may wait before the stream is ended as too slow.
    let limit: Int
    /// How many digests of finds may wait.
    static let digestsKept = 4
    /// An NSLock, as ``Ledger/Batcher`` uses: ThreadSanitizer sees its ordering.
    private let lock = NSLock()
    nonisolated(unsafe) private var waiting = Waiting()

    init(limit: Int) {
        precondition(limit > 0)
        self.limit = limit
    }

    /// Queues `event` for the writer, without waking it. False when this closed the mailbox
    /// (news of the ledger would have been lost) or it was closed already.
    @discardableResult
    func post(_ event: LiveEvent) -> Bool {
        lock.withLock {
            guard !waiting.closed else { return false }
            switch event.slot {
            case .finds: waiting.keep(digest: event)
            case .standings: waiting.standings = event
            case .rank: waiting.rank = event
            case .news:
                if waiting.news.count >= limit {
                    guard let unheld = waiting.news.firstIndex(where: { $0.id == nil }) else {
                        waiting.closed = true
                        return false
                    }
                    waiting.news.remove(at: unheld)
                }
                waiting.news.append(event)
            }
            return true
        }
    }

    /// A lane's turn (``LiveLanes``): queues its `digest` of finds, if any, and wakes the
    /// writer if it waits and something is waiting for it, under one lock.
    func postAndWake(_ digest: LiveEvent?) {
        let writer: CheckedContinuation<Void, Never>? = lock.withLock {
            if let digest, !waiting.closed { waiting.keep(digest: digest) }
            guard let writer = waiting.writer, !waiting.isEmpty || waiting.closed else { return nil }
            waiting.writer = nil
            return writer
        }
        writer?.resume()
    }

    /// Wakes the writer if it waits and something is waiting for it (or the mailbox closed).
    func wake() {
        let writer: CheckedContinuation<Void, Never>? = lock.withLock {
            guard let writer = waiting.writer, !waiting.isEmpty || waiting.closed else { return nil }
            waiting.writer = nil
            return writer
        }
        writer?.resume()
    }

    /// Ends the stream once what waits has been written.
    func close() {
        lock.withLock { waiting.closed = true }
        wake()
    }

    public var isClosed: Bool { lock.withLock { waiting.closed } }

    /// True when something waits to be written.
    var hasWaiting: Bool { lock.withLock { !waiting.isEmpty } }

    /// Everything waiting, as the bytes to write, once something is: news first (each ledger
    /// event once, after seq `last`), then the digest of finds, the standings, the rank; and the last seq
    /// written. Nil once the mailbox is closed and nothing is left.
    public func next(after last: Int64) async -> (ByteBuffer, Int64)? {
        while true {
            let taken: Waiting? = lock.withLock {
                if waiting.isEmpty { return nil }
                // Moved out, not copied: emptying arrays that `taken` still shared would copy them.
                var taken = Waiting()
                swap(&taken.news, &waiting.news)
                swap(&taken.finds, &waiting.finds)
                swap(&taken.standings, &waiting.standings)
                swap(&taken.rank, &waiting.rank)
                return taken
            }
            if let taken {
                var seq = last
                var parts: [ByteBuffer] = []
                for event in taken.news {
                    if let id = event.id {
                        guard id > seq else { continue }
                        seq = id
                    }
                    parts.append(event.wire)
                }
                parts.append(contentsOf: taken.finds.map(\.wire))
                if let standings = taken.standings { parts.append(standings.wire) }
                if let rank = taken.rank { parts.append(rank.wire) }
                if parts.isEmpty { continue }
                return (Self.joined(parts), seq)
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { (writer: CheckedContinuation<Void, Never>) in
                    let resumeNow: Bool = lock.withLock {
                        if !waiting.isEmpty || waiting.closed { return true }
                        waiting.writer = writer
                        return false
                    }
                    if resumeNow { writer.resume() }
                }
            } onCancel: {
                close()
            }
            if lock.withLock({ waiting.closed && waiting.isEmpty }) { return nil }
        }
    }

    /// One buffer: the shared one itself when there is only one (no copy).
    private static func joined(_ parts: [ByteBuffer]) -> ByteBuffer {
        if parts.count == 1 { return parts[0] }
        var all = ByteBuffer()
        all.reserveCapacity(parts.reduce(0) { $0 + $1.readableBytes })
        for var part in parts { all.writeBuffer(&part) }
        return all
    }
}
