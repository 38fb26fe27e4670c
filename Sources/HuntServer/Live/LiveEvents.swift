import Foundation

/// One server-sent event: its name (`find`, `trade`, `leaderboard`, `broadcast`, `proximity`)
/// and its JSON data; and, for news of a ledger event, that event's seq as the event's `id`,
/// which a browser sends back as `Last-Event-ID` when it reconnects (see ``LiveController``).
public struct LiveEvent: Sendable, Equatable {
    public var name: String
    public var json: String
    /// The seq of the ledger event this is news of; nil for what the ledger does not hold
    /// (the leaderboard as it stands, a proximity hint, a heartbeat).
    public var id: Int64?

    /// An event whose data is `value` encoded as JSON.
    public init(name: String, value: some Encodable, id: Int64? = nil) {
        self.name = name
        self.id = id
        self.json = (try? Self.encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// An event whose data is already JSON (news another server published).
    init(name: String, json: String) {
        self.name = name
        self.json = json
    }

    /// The event as it goes on the wire.
    var wire: String { (id.map { "id: \($0)\n" } ?? "") + "event: \(name)\ndata: \(json)\n\n" }
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
        for (id, subscriber) in subscribers {
            switch subscriber.listener {
            case .player(let listener) where player == nil || listener == player: deliver(event, to: id)
            case .gameMaster where player == nil: deliver(event, to: id)
            default: continue
            }
        }
    }

    /// Sends news of a ledger event to those it is for.
    func send(_ event: LiveEvent, to audience: Audience) {
        switch audience {
        case .everyone: send(event, to: nil)
        case .players(let players): for player in players { send(event, to: player) }
        case .gameMaster: sendToGameMaster(event)
        }
    }

    /// Yields to one stream. A stream too slow to take news of the ledger (its buffer full)
    /// is ended rather than left with a gap: the browser reconnects with the last id it got,
    /// and the stream it reopens reads what it missed from the ledger.
    private func deliver(_ event: LiveEvent, to id: UUID) {
        guard let subscriber = subscribers[id] else { return }
        // The buffer keeps the newest: what it drops is the oldest news waiting.
        if case .dropped(let oldest) = subscriber.continuation.yield(event), oldest.id != nil {
            subscribers.removeValue(forKey: id)?.continuation.finish()
        }
    }

    /// Sends to one stream only (its heartbeat).
    func send(_ event: LiveEvent, toStream id: UUID) {
        deliver(event, to: id)
    }

    /// Sends to the game master's control rooms only.
    public func sendToGameMaster(_ event: LiveEvent) {
        for (id, subscriber) in subscribers where subscriber.listener == .gameMaster {
            deliver(event, to: id)
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

/// Who hears a piece of news.
enum Audience: Sendable, Equatable, Codable {
    /// Every player and control room.
    case everyone
    /// These players only (the two sides of a trade).
    case players([String])
    /// The control rooms only.
    case gameMaster

    /// True when `listener` hears news for this audience.
    func includes(_ listener: Listener) -> Bool {
        switch (self, listener) {
        case (.everyone, _), (.gameMaster, .gameMaster): true
        case (.players(let players), .player(let player)): players.contains(player)
        default: false
        }
    }
}
