import Foundation

/// A player's leaderboard line and the key that orders equal lines: their name's key, compared
/// byte by byte as the stores' `ORDER BY … COLLATE` does.
struct StandingLine: Sendable {
    var standing: Standing
    var key: String

    init(row: LedgerRow) {
        standing = Standing(row: row)
        key = row["name_key"]
    }

    /// Whether this line comes before `other`: more points, then more finds, then the name.
    func precedes(_ other: StandingLine) -> Bool {
        if standing.points != other.standing.points { return standing.points > other.standing.points }
        if standing.finds != other.standing.finds { return standing.finds > other.standing.finds }
        return key.utf8.lexicographicallyPrecedes(other.key.utf8)
    }
}

/// A hunt's leaderboard kept in memory and brought up to date from the events written since it
/// was last read: only the players those events name are read again (a find, a hint paid for,
/// points given, a join, a forgotten name), and a change that may touch many (a voided find) or
/// a long absence reads the whole board again. Events from other processes and servers are in
/// the same table, so every server's book follows every server's finds.
///
/// At 10,000 players the whole board took 30 ms of SQLite alone and 40–300 ms under load,
/// read again at each standings update (every 2 s); a busy second now reads a few dozen lines.
/// The order is the store's (``GameStore/leaderboard(hunt:)``), as tests compare act by act.
///
/// ```swift
/// let book = LeaderboardBook(store: store, hunt: "DEMO")
/// let standings = try await book.standings()   // first place first
/// ```
public actor LeaderboardBook {
    /// What the last read did, for tests and logs.
    public enum Refresh: Sendable, Equatable {
        /// Nothing was written that changes a line.
        case none
        /// The lines of this many players were read again.
        case players(Int)
        /// The whole board was read.
        case whole
    }

    private let store: any GameStore
    private let hunt: String
    /// How many players one query reads (``GameStore/lines(hunt:of:perQuery:)``).
    let perQuery: Int
    /// The board in order, as of `seq`.
    private var board: [StandingLine] = []
    private var seq: Int64 = 0
    private var loaded = false
    private var reading: Task<[Standing], any Error>?
    public private(set) var lastRefresh: Refresh = .none
    /// Past this many events since the last read, the whole board is read again rather than
    /// the events: a server that was idle for long, or a ledger copied in.
    static let eventsToFollow = 4_096

    public init(store: any GameStore, hunt: String) {
        self.init(store: store, hunt: hunt, perQuery: 100)
    }

    init(store: any GameStore, hunt: String, perQuery: Int) {
        self.store = store
        self.hunt = hunt.uppercased()
        self.perQuery = perQuery
    }

    /// Every player's line, first place first: points, then finds, then name. As of this call
    /// or later: a call that comes during a read waits for it and then reads what is new, so
    /// a find written just before the call is on the board it answers.
    public func standings() async throws -> [Standing] {
        let previous = reading
        let task = Task {
            _ = try? await previous?.value   // one read at a time: each changes the board
            return try await self.refresh()
        }
        reading = task
        defer { if reading == task { reading = nil } }
        return try await task.value
    }

    private func refresh() async throws -> [Standing] {
        guard loaded else { return try await readWhole() }
        let events = try await store.events(after: seq, limit: Self.eventsToFollow)
        guard events.count < Self.eventsToFollow else { return try await readWhole() }
        var changed: Set<String> = []
        for event in events where event.hunt == hunt {
            switch Self.touches(event) {
            case .nobody: break
            case .players(let players): changed.formUnion(players)
            case .everyone: return try await readWhole()
            }
        }
        // Past a quarter of the players, one pass over the whole board costs less.
        if changed.count > max(board.count / 4, perQuery) { return try await readWhole() }
        if !changed.isEmpty {
            let fresh = try await store.lines(hunt: hunt, of: changed.sorted(), perQuery: perQuery).sorted { $0.precedes($1) }
            board = Self.merge(board.filter { !changed.contains($0.standing.player) }, fresh)
        }
        // Only now that the lines are read: a read that failed leaves these events for the next.
        if let last = events.last { seq = last.seq }
        lastRefresh = changed.isEmpty ? .none : .players(changed.count)
        return board.map(\.standing)
    }

    /// Reads the whole board, and where the events stood before it: an event written during
    /// the read is read again next time, which at worst reads a line twice.
    private func readWhole() async throws -> [Standing] {
        let head = try await store.headSeq()
        board = try await store.rankedLines(hunt: hunt)
        seq = head
        loaded = true
        lastRefresh = .whole
        return board.map(\.standing)
    }

    /// Two boards in order, as one.
    static func merge(_ left: [StandingLine], _ right: [StandingLine]) -> [StandingLine] {
        var merged: [StandingLine] = []
        merged.reserveCapacity(left.count + right.count)
        var i = 0, j = 0
        while i < left.count, j < right.count {
            if right[j].precedes(left[i]) { merged.append(right[j]); j += 1 } else { merged.append(left[i]); i += 1 }
        }
        merged += left[i...]
        merged += right[j...]
        return merged
    }

    enum Touch { case nobody, players([String]), everyone }

    /// Whose lines an event may change: the players whose points, finds, name or team it
    /// writes. A voided find names no player (its points go with it), so it reads the board.
    static func touches(_ event: LedgerEvent) -> Touch {
        guard let kind = EventKind(rawValue: event.kind) else { return .everyone }
        switch kind {
        case .playerJoined, .findRecorded, .pointsAdjusted, .hintRevealed, .challengeAnswered, .photoJudged,
             .playerForgotten:
            guard let body = try? event.decodedBody() else { return .everyone }
            return .players(body.players)
        case .findVoided:
            return .everyone
        case .pinChecked, .pinReset, .claimAttempted, .trackableSeeded, .trackablePickedUp, .trackableDropped,
             .tradeOffered, .tradeAccepted, .tradeClosed, .reportFiled, .reportResolved, .cacheAvailability,
             .secretRotated, .huntStarted, .huntStopped, .courseStarted, .runnerDisqualified, .photoSubmitted,
             .positionsDropped:
            return .nobody
        }
    }
}
