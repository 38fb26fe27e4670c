import Foundation
import NIOCore
import NIOHTTPTypes

/// How long a connection may idle or dawdle, and how many the server holds at once.
///
/// - A connection that sends nothing, or only part of a request's head, for ``idleTimeout``
///   is closed (Hummingbird's HTTP/1 idle timeout, on every listener, TLS or not).
/// - A request's body must keep coming: after ``bodyGrace`` it must have averaged
///   ``minimumBodyRate`` bytes a second (Apache's `RequestReadTimeout … MinRate`), or its
///   connection is closed. A slow-loris client that trickles bytes holds a descriptor for
///   seconds, not forever.
/// - At most ``maximumConnections`` are open. A new connection past it closes the one that has
///   been idle longest (between requests, or still sending a head); when every connection is
///   busy answering, the new one is closed. So idle sockets cannot keep `/healthz` out.
///
/// Event streams are answers in progress: no timeout ends them (they carry a comment every
/// 15 s, which keeps proxies from ending them too), and they are never shed.
public struct ConnectionLimits: Sendable {
    public var idleTimeout: Duration
    public var bodyGrace: Duration
    public var minimumBodyRate: Int
    public var maximumConnections: Int

    public init(idleTimeout: Duration = .seconds(20), bodyGrace: Duration = .seconds(20), minimumBodyRate: Int = 4096,
                maximumConnections: Int) {
        self.idleTimeout = idleTimeout
        self.bodyGrace = bodyGrace
        self.minimumBodyRate = minimumBodyRate
        self.maximumConnections = maximumConnections
    }

    /// Limits for a process that may hold `descriptors` open files: an eighth of them (at
    /// least 64) stay free for what is not a connection (the ledger's SQLite files or its
    /// PostgreSQL connections, the data folder, MBTiles, the listeners), and at most 16,384
    /// connections (some tens of kilobytes each).
    public static func forDescriptors(_ descriptors: Int) -> ConnectionLimits {
        let reserve = max(64, descriptors / 8)
        return ConnectionLimits(maximumConnections: max(16, min(16_384, descriptors - reserve)))
    }

    /// The limits for this process's descriptor limit as it stands (see ``DescriptorLimit``).
    public static var current: ConnectionLimits { forDescriptors(DescriptorLimit.current.soft) }
}

/// The connections open on every listener of one server, with which are idle, so the longest
/// idle can make room for a new one.
final class OpenConnections: @unchecked Sendable {   // `open` only under `lock`
    private struct Entry {
        let channel: any Channel
        /// Since when it waits for a request; nil while one is read or answered.
        var idleSince: NIODeadline?
    }
    private let lock = NSLock()
    private var open: [ObjectIdentifier: Entry] = [:]
    let maximum: Int

    init(maximum: Int) { self.maximum = maximum }

    var count: Int { lock.withLock { open.count } }

    /// Counts a new connection; false when every place is taken by a busy one (close it).
    func opened(_ channel: any Channel) -> Bool {
        let (admitted, shed): (Bool, (any Channel)?) = lock.withLock {
            var shed: (any Channel)?
            if open.count >= maximum {
                var oldest: (key: ObjectIdentifier, since: NIODeadline)?
                for (key, entry) in open {
                    if let since = entry.idleSince, since < oldest?.since ?? .distantFuture { oldest = (key, since) }
                }
                guard let oldest else { return (false, nil) }
                shed = open.removeValue(forKey: oldest.key)?.channel
            }
            open[ObjectIdentifier(channel)] = Entry(channel: channel, idleSince: .now())
            return (true, shed)
        }
        shed?.close(promise: nil)
        return admitted
    }

    func closed(_ channel: any Channel) {
        lock.withLock { _ = open.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// A request began (busy) or its answer ended (idle).
    func mark(_ channel: any Channel, busy: Bool) {
        lock.withLock { open[ObjectIdentifier(channel)]?.idleSince = busy ? nil : .now() }
    }
}

/// Watches one connection for ``ConnectionLimits``: counts it among ``OpenConnections``,
/// marks it busy while a request is read or answered, and closes it when a body comes in
/// slower than ``ConnectionLimits/minimumBodyRate``.
final class ConnectionWatch: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let connections: OpenConnections
    private let limits: ConnectionLimits
    private var counted = false
    private var inProgress = 0
    /// While a body is read: when its head came and how many bytes have come since.
    private var reading: (since: NIODeadline, bytes: Int)?
    private var deadline: Scheduled<Void>?

    init(connections: OpenConnections, limits: ConnectionLimits) {
        self.connections = connections
        self.limits = limits
    }

    func channelActive(context: ChannelHandlerContext) {
        counted = true
        guard connections.opened(context.channel) else {
            context.close(promise: nil)
            return
        }
        context.fireChannelActive()
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive, !counted {
            counted = true
            if !connections.opened(context.channel) { context.close(promise: nil) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        connections.closed(context.channel)
        deadline?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            inProgress += 1
            if inProgress == 1 { connections.mark(context.channel, busy: true) }
            reading = (.now(), 0)
            scheduleDeadline(context)
        case .body(let bytes):
            reading?.bytes += bytes.readableBytes
        case .end:
            reading = nil
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            inProgress -= 1
            if inProgress == 0 { connections.mark(context.channel, busy: false) }
        }
        context.write(data, promise: promise)
    }

    /// The body must have come at the minimum rate since the grace ended: checked when it
    /// would fall behind if no byte came meanwhile, and again from there while it keeps up.
    private func scheduleDeadline(_ context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        guard let reading else { return }
        let due = reading.since + TimeAmount(limits.bodyGrace)
            + .nanoseconds(Int64(reading.bytes) * 1_000_000_000 / Int64(max(1, limits.minimumBodyRate)))
        if NIODeadline.now() >= due {
            context.close(promise: nil)
            return
        }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in
            self.scheduleDeadline(context)
        }
    }
}
