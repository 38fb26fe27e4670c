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

/// Who listens on a stream: a player, or the game master's control room.
public enum Listener: Sendable, Equatable {
    case player(String)
    case gameMaster
}

/// The players and control rooms listening for live events, and what each sign-in session
/// was already told. What every player hears the control room hears too; what only the game
/// master may see (claims as they are judged, players' positions) goes with
/// ``sendToGameMaster(_:)``.
///
/// ```swift
/// let (id, stream) = await live.subscribe(.player("P3"))
/// await live.send(LiveEvent(name: "broadcast", value: ["message": "Lunch at noon"]), to: nil)
/// await live.sendToGameMaster(LiveEvent(name: "position", value: fix))
/// ```
public actor LiveEvents {
    private var subscribers: [UUID: (listener: Listener, continuation: AsyncStream<LiveEvent>.Continuation)] = [:]
    private var toldNear: [String: Set<String>] = [:]   // session key → caches already announced
    private var closed = false

    public init() {}

    /// A stream of the events for `listener`, until ``unsubscribe(_:)`` or ``closeAll()``.
    public func subscribe(_ listener: Listener) -> (UUID, AsyncStream<LiveEvent>) {
        let id = UUID()
        // A control room hears every claim and position: it keeps more of a burst.
        let keep = listener == .gameMaster ? 512 : 64
        let (stream, continuation) = AsyncStream<LiveEvent>.makeStream(bufferingPolicy: .bufferingNewest(keep))
        if closed {
            continuation.finish()
        } else {
            subscribers[id] = (listener, continuation)
        }
        return (id, stream)
    }

    public func unsubscribe(_ id: UUID) {
        subscribers.removeValue(forKey: id)?.continuation.finish()
    }

    /// Sends to one player's streams, or to everyone's (control rooms included) when `player`
    /// is nil.
    public func send(_ event: LiveEvent, to player: String?) {
        for subscriber in subscribers.values {
            switch subscriber.listener {
            case .player(let id) where player == nil || id == player: subscriber.continuation.yield(event)
            case .gameMaster where player == nil: subscriber.continuation.yield(event)
            default: continue
            }
        }
    }

    /// Sends to one stream only (its heartbeat).
    func send(_ event: LiveEvent, toStream id: UUID) {
        subscribers[id]?.continuation.yield(event)
    }

    /// Sends to the game master's control rooms only.
    public func sendToGameMaster(_ event: LiveEvent) {
        for subscriber in subscribers.values where subscriber.listener == .gameMaster {
            subscriber.continuation.yield(event)
        }
    }

    /// How many streams are open (for the game master's page and tests).
    public var listenerCount: Int { subscribers.count }

    /// True when a control room is open: what only it would hear is not worth building otherwise.
    public var gameMasterListening: Bool { subscribers.values.contains { $0.listener == .gameMaster } }

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
