import Foundation
import GeoQR

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
/// let (id, stream) = try await live.subscribe(.player("P3"), token: token, address: "192.168.1.23")
/// await live.send(LiveEvent(name: "broadcast", value: ["message": "Lunch at noon"]), to: nil)
/// await live.sendToGameMaster(LiveEvent(name: "position", value: fix))
/// ```
public actor LiveEvents {
    private struct Subscriber {
        let listener: Listener
        let continuation: AsyncStream<LiveEvent>.Continuation
        /// The sign-in token and client address it was opened with (nil: not counted).
        let token: String?
        let address: String?
        /// Opening order, so the oldest of a token is known.
        let opened: Int
    }
    private var subscribers: [UUID: Subscriber] = [:]
    private var toldNear: [String: Set<String>] = [:]   // session key → caches already announced
    private var closed = false
    private var openings = 0
    /// How many streams one sign-in token and one client address may hold open.
    public let limits: StreamLimits

    public init(limits: StreamLimits = StreamLimits()) {
        self.limits = limits
    }

    /// A stream of the events for `listener`, until ``unsubscribe(_:)`` or ``closeAll()``.
    ///
    /// A stream opened with a `token` past ``StreamLimits/perToken`` ends that token's oldest
    /// stream: a phone that lost signal reconnects while its old stream still looks open to the
    /// server (TCP notices a vanished phone only after minutes), and must get in; the old one
    /// is the one that is dead. One opened from an `address` holding ``StreamLimits/perAddress``
    /// already is refused with a 429, unless its token has a stream from there to give up.
    public func subscribe(_ listener: Listener, token: String? = nil, address: String? = nil)
        throws(APIError) -> (UUID, AsyncStream<LiveEvent>)
    {
        if let token, count(where: { $0.token == token }) >= limits.perToken {
            endOldest(where: { $0.token == token })
        }
        if let address, count(where: { $0.address == address }) >= limits.perAddress {
            guard let token, count(where: { $0.token == token && $0.address == address }) > 0 else {
                var error = APIError(.tooManyRequests, "too-many-streams",
                                     Phrase("error.too-many-streams", ["limit": .integer(limits.perAddress)]))
                error.headers[.retryAfter] = "30"
                throw error
            }
            endOldest(where: { $0.token == token && $0.address == address })
        }
        let id = UUID()
        // A control room hears every claim and position: it keeps more of a burst.
        let keep = listener == .gameMaster ? 512 : 64
        let (stream, continuation) = AsyncStream<LiveEvent>.makeStream(bufferingPolicy: .bufferingNewest(keep))
        if closed {
            continuation.finish()
        } else {
            openings += 1
            subscribers[id] = Subscriber(listener: listener, continuation: continuation, token: token, address: address,
                                         opened: openings)
        }
        return (id, stream)
    }

    private func count(where matches: (Subscriber) -> Bool) -> Int {
        subscribers.values.reduce(0) { $0 + (matches($1) ? 1 : 0) }
    }

    /// Ends the oldest stream that `matches`: its response ends, and its connection is free.
    private func endOldest(where matches: (Subscriber) -> Bool) {
        guard let oldest = subscribers.filter({ matches($0.value) }).min(by: { $0.value.opened < $1.value.opened }) else { return }
        subscribers.removeValue(forKey: oldest.key)?.continuation.finish()
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

/// How many event streams one sign-in token and one client address may hold open.
public struct StreamLimits: Sendable {
    /// Per token: a phone, or a tab or two on a laptop. Past it the token's oldest ends.
    public var perToken: Int
    /// Per address: a class of 40 behind one school NAT, each with a phone and a spare tab,
    /// plus a control room. Past it a new stream is a 429.
    public var perAddress: Int

    public init(perToken: Int = 4, perAddress: Int = 100) {
        self.perToken = perToken
        self.perAddress = perAddress
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
