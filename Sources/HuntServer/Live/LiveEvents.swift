import Foundation

/// One server-sent event: its name (`find`, `trade`, `leaderboard`, `broadcast`, `proximity`)
/// and its JSON data.
public struct LiveEvent: Sendable, Equatable {
    public var name: String
    public var json: String

    /// An event whose data is `value` encoded as JSON.
    public init(name: String, value: some Encodable) {
        self.name = name
        self.json = (try? Self.encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// The event as it goes on the wire.
    var wire: String { "event: \(name)\ndata: \(json)\n\n" }
}

/// The players listening for live events, and what each sign-in session was already told.
///
/// ```swift
/// let (id, stream) = await live.subscribe(player: "P3")
/// await live.send(LiveEvent(name: "broadcast", value: ["message": "Lunch at noon"]), to: nil)
/// ```
public actor LiveEvents {
    private var subscribers: [UUID: (player: String, continuation: AsyncStream<LiveEvent>.Continuation)] = [:]
    private var toldNear: [String: Set<String>] = [:]   // session key → caches already announced
    private var closed = false

    public init() {}

    /// A stream of the events for `player`, until ``unsubscribe(_:)`` or ``closeAll()``.
    public func subscribe(player: String) -> (UUID, AsyncStream<LiveEvent>) {
        let id = UUID()
        let (stream, continuation) = AsyncStream<LiveEvent>.makeStream(bufferingPolicy: .bufferingNewest(64))
        if closed {
            continuation.finish()
        } else {
            subscribers[id] = (player, continuation)
        }
        return (id, stream)
    }

    public func unsubscribe(_ id: UUID) {
        subscribers.removeValue(forKey: id)?.continuation.finish()
    }

    /// Sends to one player's streams, or to everyone's when `player` is nil.
    public func send(_ event: LiveEvent, to player: String?) {
        for subscriber in subscribers.values where player == nil || subscriber.player == player {
            subscriber.continuation.yield(event)
        }
    }

    /// How many streams are open (for the game master's page and tests).
    public var listenerCount: Int { subscribers.count }

    /// Ends every stream, so a graceful shutdown is not held up by open event streams.
    public func closeAll() {
        closed = true
        for subscriber in subscribers.values { subscriber.continuation.finish() }
        subscribers.removeAll()
    }

    /// The caches of `near` this session has not been told about yet, now marked as told.
    func firstMentions(of near: [String], session: String) -> [String] {
        var told = toldNear[session, default: []]
        let fresh = near.filter { told.insert($0).inserted }
        toldNear[session] = told
        return fresh
    }
}
