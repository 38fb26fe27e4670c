import Foundation
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

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
/// A stream on a server connection hands its writes over (``writeDirectly(to:after:)``): from
/// then on a wake writes what waits straight to the connection, on its event loop, and a lane's
/// turn writes all its streams of one event loop in one job there (``LiveLanes``). Woken task
/// by task, each of the 20,000 writes a second of 10,000 streams resumed the stream's task on
/// Swift's shared pool, went through Hummingbird's and NIO's async writers, and hopped to the
/// event loop on its own.
///
/// ```swift
/// let box = LiveMailbox(limit: 64)
/// box.post(event)
/// box.wake()
/// while let (bytes, last) = await box.next(after: last) { try await writer.write(bytes) }
/// // or, on a server connection:
/// await box.writeDirectly(to: channel, after: last)
/// ```
public final class LiveMailbox: Sendable {
    private struct Waiting {
        var news: [LiveEvent] = []
        var finds: [LiveEvent] = []
        var standings: LiveEvent?
        var rank: LiveEvent?
        var closed = false
        var writer: CheckedContinuation<Void, Never>?
        /// Once the writes are handed over: where they go, and the last seq written.
        var direct: Direct?

        struct Direct {
            let channel: any Channel
            /// Where the writes enter the connection's pipeline (``writeDirectly(to:after:)``).
            let entry: Entry?
            var lastSeq: Int64
            /// The last write was made; the response's end follows and nothing more may be written.
            var done = false
        }

        var isEmpty: Bool { news.isEmpty && finds.isEmpty && standings == nil && rank == nil }

        /// What waits, moved out, not copied: emptying arrays that the result still shared would
        /// copy them.
        mutating func takeAll() -> Waiting {
            var taken = Waiting()
            swap(&taken.news, &news)
            swap(&taken.finds, &finds)
            swap(&taken.standings, &standings)
            swap(&taken.rank, &rank)
            return taken
        }

        /// The buffers to write for what was taken: news first (each ledger event once, after
        /// seq `seq`, which moves to the last written), then the digests of finds, the
        /// standings, the rank. Empty when nothing is left to write.
        func parts(after seq: inout Int64) -> [ByteBuffer] {
            var parts: [ByteBuffer] = []
            for event in news {
                if let id = event.id {
                    guard id > seq else { continue }
                    seq = id
                }
                parts.append(event.wire)
            }
            parts.append(contentsOf: finds.map(\.wire))
            if let standings { parts.append(standings.wire) }
            if let rank { parts.append(rank.wire) }
            return parts
        }

        /// Keeps a digest of finds, dropping the oldest past ``LiveMailbox/digestsKept``.
        mutating func keep(digest: LiveEvent) {
            if finds.count >= LiveMailbox.digestsKept { finds.removeFirst() }
            finds.append(digest)
        }

        // What follows runs under the mailbox's lock, each as one mutating call: read from the
        // class's property in a closure, `isEmpty` and `direct` copied the whole of `Waiting`
        // (its arrays and the channel retained and released) on each turn of every stream.

        /// The writer to resume, or the event loop to write on, for a wake (``wake()``). A stream
        /// that writes directly has its writer waiting for the end: resumed once closed, unless
        /// not `ending` (a lane's turn, ``postAndWake(_:)``).
        mutating func wake(ending: Bool = true) -> (CheckedContinuation<Void, Never>?, (any EventLoop)?) {
            if let direct {
                let resumed = ending && closed ? writer : nil
                if resumed != nil { writer = nil }
                return (resumed, isEmpty || direct.done ? nil : direct.channel.eventLoop)
            }
            guard let resumed = writer, !isEmpty || closed else { return (nil, nil) }
            writer = nil
            return (resumed, nil)
        }


        /// What to write straight to the connection now (``writeWaiting(last:)``), taken out.
        mutating func takeForDirectWrite(last: Bool) -> (any Channel, Entry?, [ByteBuffer])? {
            guard let channel = direct?.channel, direct?.done == false else { return nil }
            guard last || channel.isWritable else { return nil }
            direct!.done = last
            guard !isEmpty else { return nil }
            let parts = takeAll().parts(after: &direct!.lastSeq)
            return parts.isEmpty ? nil : (channel, direct!.entry, parts)
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
    /// writer if it waits and something is waiting for it, under one lock. For a stream that
    /// writes directly, answers the event loop to call ``writeWaiting()`` on instead (nil when
    /// nothing waits).
    func postAndWake(_ digest: LiveEvent?) -> (any EventLoop)? {
        let (writer, loop) = lock.withLock {
            if let digest, !waiting.closed { waiting.keep(digest: digest) }
            return waiting.wake(ending: false)
        }
        writer?.resume()
        return loop
    }

    /// Wakes the writer if it waits and something is waiting for it (or the mailbox closed);
    /// for a stream that writes directly, writes what waits on its event loop.
    func wake() {
        let (writer, loop) = lock.withLock { waiting.wake() }
        writer?.resume()
        loop?.execute { self.writeWaiting() }
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
            let taken: Waiting? = lock.withLock { waiting.isEmpty ? nil : waiting.takeAll() }
            if let taken {
                var seq = last
                let parts = taken.parts(after: &seq)
                guard !parts.isEmpty else { continue }
                return (LiveMailbox.joined(parts), seq)
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

    /// Hands the stream's writes over to `channel`, the connection its response goes out on,
    /// after what was written so far (through seq `last`): each wake and each turn of its lane
    /// writes what waits straight to the connection on its event loop, and this waits until
    /// the stream ends (the mailbox closed, the connection closed or the task cancelled). Then
    /// what still waits is written, and nothing after it: the response's end may follow.
    ///
    /// Call it once the response's head and what the stream wrote through its writer have been
    /// handed to the connection (each `write` awaited), so the direct writes come after them.
    ///
    /// The writes enter the connection's pipeline below NIO's HTTP/1 encoder, framed here as
    /// the response's chunks, each write one buffer (TLS below, if any, encrypts it). The
    /// handlers above pass a body part on untouched (the conversion from Swift HTTP types,
    /// ``ConnectionWatch``, Hummingbird's connection state, the async channel) and the encoder
    /// frames it in three writes (the chunk's size, the body, its end); each of the 20,000
    /// writes a second of 10,000 streams went through them all. The chunked framing is the
    /// encoder's own for this response: its head is HTTP/1.1 (swift-nio-extras' conversion
    /// writes every response as 1.1, also to an HTTP/1.0 request), a 200 with no length, to a
    /// GET (the route's only method); the response's end still goes through the encoder, which
    /// writes the last chunk. On a connection without that pipeline the writes enter it at the
    /// end, as the response's do.
    public func writeDirectly(to channel: any Channel, after last: Int64) async {
        let entered: Void? = try? await channel.eventLoop.submit {
            let sync = channel.pipeline.syncOperations
            let entry: Entry? = if let encoder = try? sync.context(handlerType: HTTPResponseEncoder.self) {
                .belowEncoder(NIOLoopBound(encoder, eventLoop: channel.eventLoop))
            } else if let codec = try? sync.context(handlerType: HTTP1ToHTTPServerCodec.self) {
                .aboveEncoder(NIOLoopBound(codec, eventLoop: channel.eventLoop))
            } else {
                nil
            }
            self.lock.withLock { self.waiting.direct = .init(channel: channel, entry: entry, lastSeq: last) }
        }.get()
        guard entered != nil else {
            close()
            return
        }
        channel.closeFuture.whenComplete { _ in self.close() }
        wake()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (writer: CheckedContinuation<Void, Never>) in
                let resumeNow: Bool = lock.withLock {
                    if waiting.closed { return true }
                    waiting.writer = writer
                    return false
                }
                if resumeNow { writer.resume() }
            }
        } onCancel: {
            close()
        }
        try? await channel.eventLoop.submit { self.writeWaiting(last: true) }.get()
    }

    /// Writes what waits to the stream's connection, and flushes it; on its event loop, once
    /// the writes are handed over. Leaves it waiting while the connection is not writable (a
    /// phone that does not read): a newer standings replaces the older, and news past the limit
    /// ends the stream, as for a writer that waits. After the `last` write, writes nothing more.
    func writeWaiting(last: Bool = false) {
        guard let (channel, entry, parts) = lock.withLock({ waiting.takeForDirectWrite(last: last) }) else { return }
        switch entry {
        case .belowEncoder(let encoder)?:
            encoder.value.writeAndFlush(NIOAny(IOData.byteBuffer(Self.chunk(parts))), promise: nil)
        case .aboveEncoder(let codec)?:
            codec.value.writeAndFlush(NIOAny(HTTPServerResponsePart.body(.byteBuffer(Self.joined(parts)))), promise: nil)
        case nil:
            channel.writeAndFlush(HTTPResponsePart.body(Self.joined(parts)), promise: nil)
        }
    }

    /// Where a stream's writes enter its connection's pipeline, used on its event loop only.
    enum Entry {
        /// Below NIO's HTTP/1 encoder, as bytes framed as a chunk (``chunk(_:)``).
        case belowEncoder(NIOLoopBound<ChannelHandlerContext>)
        /// Above the encoder, as a body part it frames.
        case aboveEncoder(NIOLoopBound<ChannelHandlerContext>)
    }

    /// `parts` framed as one chunk of a chunked HTTP/1.1 body, in one buffer: the size in hex,
    /// CRLF, the bytes, CRLF (RFC 9112 §7.1), as NIO's encoder frames a body part. Never
    /// empty (an empty chunk would end the body): every event has bytes.
    static func chunk(_ parts: [ByteBuffer]) -> ByteBuffer {
        let size = parts.reduce(0) { $0 + $1.readableBytes }
        precondition(size > 0, "an empty chunk ends the body")
        let header = String(size, radix: 16)
        var framed = ByteBuffer()
        framed.reserveCapacity(header.utf8.count + size + 4)
        framed.writeString(header)
        framed.writeStaticString("\r\n")
        for var part in parts { framed.writeBuffer(&part) }
        framed.writeStaticString("\r\n")
        return framed
    }

    /// One buffer: the shared one itself when there is only one (no copy).
    fileprivate static func joined(_ parts: [ByteBuffer]) -> ByteBuffer {
        if parts.count == 1 { return parts[0] }
        var all = ByteBuffer()
        all.reserveCapacity(parts.reduce(0) { $0 + $1.readableBytes })
        for var part in parts { all.writeBuffer(&part) }
        return all
    }
}
