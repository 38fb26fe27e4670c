import Foundation
import Synchronization
import GeoQR
import NIOCore

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
/// Each stream has a ``LiveMailbox``; the streams are indexed by player, so news for two
/// players (a trade) touches their streams only.
///
/// What every stream hears in common (the finds, the standings, each player's rank, the
/// heartbeat) goes round the streams in ``LiveLanes``: every stream hears it within a round
/// (``findsInterval``), in one write. The lanes stop turning a round after the last such news,
/// and start again with the next.
///
/// Other news (a trade, a broadcast, a claim or a position for the control room) goes into the
/// mailboxes at once, and their writers are woken at once too unless they were woken less than
/// ``wakeInterval`` ago: then once when it has passed, for everything posted meanwhile.
///
/// ```swift
/// let (id, mailbox) = try await live.subscribe(.player("P3"), token: token, address: "192.168.1.23")
/// await live.send(LiveEvent(name: "broadcast", value: ["message": "Lunch at noon"]), to: nil)
/// await live.sendToGameMaster(LiveEvent(name: "position", value: fix))
/// ```
public actor LiveEvents {
    private struct Subscriber {
        let listener: Listener
        let mailbox: LiveMailbox
        /// The sign-in token and client address it was opened with (nil: not counted).
        let token: String?
        let address: String?
        /// Opening order, so the oldest of a token is known.
        let opened: Int
        let lane: Int
    }
    private var subscribers: [UUID: Subscriber] = [:]
    /// The streams of each player, and the control rooms'.
    private var byPlayer: [String: Set<UUID>] = [:]
    private var gameMasters: Set<UUID> = [] {
        didSet { controlRooms.store(gameMasters.count, ordering: .relaxed) }
    }
    /// How many control rooms are open, readable without waiting for the actor: every claim
    /// and every position asks, and the actor may be busy posting to every stream (a claim
    /// waited 20–100 ms for it at 8,500 streams).
    private nonisolated let controlRooms = Atomic<Int>(0)
    /// Streams of a token and of an address, counted for ``StreamLimits``.
    private var perToken: [String: Int] = [:]
    private var perAddress: [String: Int] = [:]
    private var toldNear: [String: Set<String>] = [:]   // session key → caches already announced
    private var closed = false
    private var openings = 0
    /// How many streams one sign-in token and one client address may hold open.
    public let limits: StreamLimits
    /// Writers are woken at most this often under a burst (the first news after a quiet spell
    /// is woken at once).
    public let wakeInterval: Duration
    /// Mailboxes posted to and not yet woken; `everyone` when news went to every stream.
    private var unwoken: Set<UUID> = []
    private var everyoneUnwoken = false
    private var lastWake: ContinuousClock.Instant?
    private var wakeDue = false
    /// A round of the lanes: every stream hears the finds, the standings and its rank at most
    /// this often, and within it (within up to ``LiveLanes/longestRound`` with thousands of
    /// streams: ``LiveLanes/turnInterval``).
    public let findsInterval: Duration
    private var lanes: LiveLanes
    /// The lanes' turns: they run while something waits for them, and a round after.
    private var lanesTurning: Task<Void, Never>?
    private let lanesTurnThemselves: Bool
    /// Every stream hears a `ping` this often, one shared message, so a connection that died
    /// without a word is noticed when the write fails.
    public let heartbeatInterval: Duration
    private var heartbeat: Task<Void, Never>?

    public init(limits: StreamLimits = StreamLimits(), wakeInterval: Duration = .milliseconds(200),
                findsInterval: Duration = .milliseconds(500), heartbeatInterval: Duration = .seconds(15)) {
        self.init(limits: limits, wakeInterval: wakeInterval, findsInterval: findsInterval,
                  heartbeatInterval: heartbeatInterval, lanesTurnThemselves: true)
    }

    /// With `lanesTurnThemselves` false, the lanes turn only when ``turnLane()`` is called
    /// (tests tell which stream hears what at which turn).
    init(limits: StreamLimits = StreamLimits(), wakeInterval: Duration = .milliseconds(200),
         findsInterval: Duration = .milliseconds(500), heartbeatInterval: Duration = .seconds(15),
         lanesTurnThemselves: Bool) {
        self.limits = limits
        self.wakeInterval = wakeInterval
        self.findsInterval = findsInterval
        self.heartbeatInterval = heartbeatInterval
        self.lanesTurnThemselves = lanesTurnThemselves
        lanes = LiveLanes(round: findsInterval)
    }

    private func startHeartbeat() {
        guard heartbeat == nil, !closed else { return }
        heartbeat = Task { [weak self, heartbeatInterval] in
            let ping = LiveEvent(name: "ping", json: "{}")
            while !Task.isCancelled {
                try? await Task.sleep(for: heartbeatInterval)
                guard let self, !Task.isCancelled else { return }
                await self.sendInLanes(ping)
            }
        }
    }

    /// A mailbox of the events for `listener`, until ``unsubscribe(_:)`` or ``closeAll()``.
    ///
    /// A stream opened with a `token` past ``StreamLimits/perToken`` ends that token's oldest
    /// stream: a phone that lost signal reconnects while its old stream still looks open to the
    /// server (TCP notices a vanished phone only after minutes), and must get in; the old one
    /// is the one that is dead. One opened from an `address` holding ``StreamLimits/perAddress``
    /// already is refused with a 429, unless its token has a stream from there to give up.
    public func subscribe(_ listener: Listener, token: String? = nil, address: String? = nil)
        throws(APIError) -> (UUID, LiveMailbox)
    {
        if let token, perToken[token, default: 0] >= limits.perToken {
            endOldest(where: { $0.token == token })
        }
        if let address, perAddress[address, default: 0] >= limits.perAddress {
            guard let token, subscribers.values.contains(where: { $0.token == token && $0.address == address }) else {
                var error = APIError(.tooManyRequests, "too-many-streams",
                                     Phrase("error.too-many-streams", ["limit": .integer(limits.perAddress)]))
                error.headers[.retryAfter] = "30"
                throw error
            }
            endOldest(where: { $0.token == token && $0.address == address })
        }
        let id = UUID()
        // A control room hears every claim and position: it keeps more of a burst.
        let mailbox = LiveMailbox(limit: listener == .gameMaster ? 512 : 64)
        if closed {
            mailbox.close()
        } else {
            openings += 1
            let lane = lanes.add(id, mailbox)
            subscribers[id] = Subscriber(listener: listener, mailbox: mailbox, token: token, address: address,
                                         opened: openings, lane: lane)
            switch listener {
            case .player(let player): byPlayer[player, default: []].insert(id)
            case .gameMaster: gameMasters.insert(id)
            }
            if let token { perToken[token, default: 0] += 1 }
            if let address { perAddress[address, default: 0] += 1 }
            startHeartbeat()
        }
        return (id, mailbox)
    }

    /// Ends the oldest stream that `matches`: its response ends, and its connection is free.
    private func endOldest(where matches: (Subscriber) -> Bool) {
        guard let oldest = subscribers.filter({ matches($0.value) }).min(by: { $0.value.opened < $1.value.opened }) else { return }
        unsubscribe(oldest.key)
    }

    public func unsubscribe(_ id: UUID) {
        guard let subscriber = subscribers.removeValue(forKey: id) else { return }
        subscriber.mailbox.close()
        lanes.remove(id, from: subscriber.lane)
        switch subscriber.listener {
        case .player(let player):
            byPlayer[player]?.remove(id)
            if byPlayer[player]?.isEmpty == true { byPlayer[player] = nil }
        case .gameMaster: gameMasters.remove(id)
        }
        if let token = subscriber.token { Self.decrement(&perToken, token) }
        if let address = subscriber.address { Self.decrement(&perAddress, address) }
        unwoken.remove(id)
    }

    private static func decrement(_ counts: inout [String: Int], _ key: String) {
        let left = counts[key, default: 0] - 1
        counts[key] = left > 0 ? left : nil
    }

    /// Sends to one player's streams, or to everyone's (control rooms included) when `player`
    /// is nil.
    public func send(_ event: LiveEvent, to player: String?) {
        if let player {
            for id in byPlayer[player] ?? [] { post(event, to: id) }
        } else {
            for id in subscribers.keys { post(event, to: id, wakeLater: false) }
            everyoneUnwoken = true
        }
        scheduleWake()
    }

    /// Sends news of a ledger event to those it is for.
    func send(_ event: LiveEvent, to audience: Audience) {
        switch audience {
        case .everyone: send(event, to: nil)
        case .players(let players): for player in Set(players) { send(event, to: player) }
        case .gameMaster: sendToGameMaster(event)
        case .digest:
            lanes.add(find: event)
            lanesHaveNews()
        }
    }

    /// The standings' news: `standings` to every stream (nil: the top did not change), and to
    /// each player in `ranks` their own rank (``StandingsNews``), each at its lane's next turn
    /// with the finds since its last.
    func send(standings: LiveEvent?, ranks: [String: LiveEvent]) {
        if let standings {
            for subscriber in subscribers.values { subscriber.mailbox.post(standings) }
        }
        for (player, rank) in ranks {
            for id in byPlayer[player] ?? [] { post(rank, to: id, wakeLater: false) }
        }
        lanesHaveNews()
    }

    /// Sends `event` to every stream at its lane's next turn (the heartbeat: no stream needs
    /// it sooner, and it costs no write of its own).
    private func sendInLanes(_ event: LiveEvent) {
        for id in Array(subscribers.keys) { post(event, to: id, wakeLater: false) }
        lanesHaveNews()
    }

    /// Something waits for the lanes' turns: they turn until a round has passed without news.
    private func lanesHaveNews() {
        lanes.haveNews()
        guard lanesTurnThemselves, lanesTurning == nil, !closed else { return }
        lanesTurning = Task { await self.turnLanes() }
    }

    private func turnLanes() async {
        var due = ContinuousClock.now
        while !closed {
            let interval = lanes.turnInterval
            due += interval
            // Behind (a stalled machine): on from now, not a rush of turns to catch up.
            if due < .now - interval { due = .now }
            try? await Task.sleep(until: due, clock: .continuous)
            if Task.isCancelled || !turnLane() { break }
        }
        lanesTurning = nil
    }

    /// The next lane's turn (``LiveLanes/turn()``). False once a whole round has passed with no
    /// news for the lanes.
    @discardableResult
    func turnLane() -> Bool {
        lanes.turn()
    }

    /// The players with a stream open here.
    var listeningPlayers: Dictionary<String, Set<UUID>>.Keys { byPlayer.keys }

    /// Posts to one stream's mailbox. A stream too slow to take news of the ledger (its
    /// mailbox full) is ended rather than left with a gap: the browser reconnects with the last
    /// id it got, and the stream it reopens reads what it missed from the ledger.
    private func post(_ event: LiveEvent, to id: UUID, wakeLater: Bool = true) {
        guard let subscriber = subscribers[id] else { return }
        if !subscriber.mailbox.post(event) {
            unsubscribe(id)
        } else if wakeLater {
            unwoken.insert(id)
        }
    }

    /// Wakes the writers posted to now, or once ``wakeInterval`` has passed since the last wake.
    private func scheduleWake() {
        guard !wakeDue else { return }
        let now = ContinuousClock.now
        if let last = lastWake, now < last + wakeInterval {
            wakeDue = true
            Task { [wakeInterval] in
                try? await Task.sleep(until: last + wakeInterval, clock: .continuous)
                self.wakeDue = false
                self.wakeNow()
            }
            return
        }
        wakeNow()
    }

    private func wakeNow() {
        lastWake = .now
        let boxes = everyoneUnwoken ? subscribers.values.map(\.mailbox) : unwoken.compactMap { subscribers[$0]?.mailbox }
        everyoneUnwoken = false
        unwoken.removeAll(keepingCapacity: true)
        Self.wake(boxes)
    }

    /// How many writers are woken at once, and the pause before the next slice. Each write
    /// goes through its connection's event loop, and the event loops (a thread per core) read
    /// every request too: 4,000 writers woken at once held every request that came meanwhile
    /// for 30–130 ms, twice a second (every kind of request shared a p99 of 100 ms at a p50 of
    /// 1 ms, the server at a third of the machine). A slice's writes take a few milliseconds,
    /// so the pause is longer: with 4 ms the slices' writes still piled up. 4,000 streams are
    /// woken over 120 ms, 10,000 over 310 ms.
    static let wakeSlice = 256, slicePause = Duration.milliseconds(8)

    /// Wakes `boxes` a slice at a time, so requests that come meanwhile wait for one slice's
    /// writes at most.
    private static func wake(_ boxes: [LiveMailbox]) {
        guard boxes.count > wakeSlice else {
            for box in boxes { box.wake() }
            return
        }
        Task {
            for start in stride(from: 0, to: boxes.count, by: wakeSlice) {
                if start > 0 { try? await Task.sleep(for: slicePause) }
                for box in boxes[start..<min(start + wakeSlice, boxes.count)] { box.wake() }
            }
        }
    }

    /// Sends to one stream only (its opening).
    func send(_ event: LiveEvent, toStream id: UUID) {
        post(event, to: id)
        scheduleWake()
    }

    /// Sends to the game master's control rooms only.
    public func sendToGameMaster(_ event: LiveEvent) {
        for id in gameMasters { post(event, to: id) }
        scheduleWake()
    }

    /// How many streams are open (for the game master's page and tests).
    public var listenerCount: Int { subscribers.count }

    /// True when a control room is open: what only it would hear is not worth building otherwise.
    public nonisolated var gameMasterListening: Bool { controlRooms.load(ordering: .relaxed) > 0 }

    /// Ends every stream, so a graceful shutdown is not held up by open event streams.
    public func closeAll() {
        closed = true
        heartbeat?.cancel()
        lanesTurning?.cancel()
        for subscriber in subscribers.values { subscriber.mailbox.close() }
        subscribers.removeAll()
        lanes.removeAll()
        byPlayer.removeAll()
        gameMasters.removeAll()
        perToken.removeAll()
        perAddress.removeAll()
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
    /// Every stream, in the next ``FindDigest``: never told again to a stream that resumes
    /// (a phone back from a tunnel needs no toast per find it missed).
    case digest

    /// True when `listener` hears news for this audience.
    func includes(_ listener: Listener) -> Bool {
        switch (self, listener) {
        case (.everyone, _), (.gameMaster, .gameMaster): true
        case (.players(let players), .player(let player)): players.contains(player)
        default: false
        }
    }
}
