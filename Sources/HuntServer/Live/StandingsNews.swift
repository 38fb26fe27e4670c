import Foundation
import GeoQR
import NIOCore
import Ledger
import Play
import Synchronization

/// The leaderboard as read from the ledger, with each player's place, and its top as every
/// stream hears it, encoded once. Read endpoints and the live news share it
/// (``ServedHunt/standings``).
struct RankedStandings: Sendable {
    /// Every player's line, first place first.
    let list: [Standing]
    /// The teams' standings, summed from the players'.
    let teams: [TeamStanding]
    private let places: [String: Int]
    /// Each line's rank (``Play/Results/ranks(_:)``): equal points and finds share one, as on
    /// the big screen.
    private let ranks: [Int]
    /// Teams' places, by ``Play/PlayerName/key(_:)`` of the name.
    private let teamPlaces: [String: Int]
    /// `GET /api/leaderboard`'s answer, written once per change rather than once per request,
    /// and only when asked for: the board is read again for the standings news at each change
    /// (15–40 ms a board at 10,000 players, with the answer written each time), and most
    /// boards are never asked for whole.
    var answer: ByteBuffer {
        written.value { ByteBuffer(bytes: Leaderboard(standings: Results.ranked(list), teams: teams).written.bytes) }
    }
    private let written = WrittenOnce()
    /// The `standings` event: the first ``StandingsNews/topCount`` lines, each with its rank, and
    /// how many players there are. One message, shared by every stream that is sent it.
    let top: LiveEvent

    init(_ list: [Standing], top count: Int = StandingsNews.topCount) {
        self.list = list
        let teams = TeamStanding.rank(list)
        self.teams = teams
        self.teamPlaces = Dictionary(teams.enumerated().map { (PlayerName.key($1.team), $0) }, uniquingKeysWith: { first, _ in first })
        var places: [String: Int] = [:]
        places.reserveCapacity(list.count)
        for (place, standing) in list.enumerated() { places[standing.player] = place }
        self.places = places
        self.ranks = Results.ranks(list)
        var json = JSONWriter()
        json.beginObject()
        json.key("top")
        json.beginArray()
        // A line's rank looks back only, so the top's ranks are the whole list's.
        for placing in Results.ranked(Array(list.prefix(count))) { placing.write(to: &json) }
        json.endArray()
        json.key("players"); json.number(list.count)
        json.endObject()
        self.top = LiveEvent(name: LiveEvent.standings, json: json.text)
    }

    /// The player's line; nil for a player with none (not joined, or not in this hunt).
    func standing(of player: String) -> Standing? {
        places[player].map { list[$0] }
    }

    /// What the player's own `rank` event says.
    func rank(of player: String) -> RankLine? {
        guard let place = places[player] else { return nil }
        let own = list[place]
        let team = own.team.flatMap { teamPlaces[PlayerName.key($0)] }.map {
            RankLine.Team(name: teams[$0].team, rank: teams[$0].rank, points: teams[$0].points, teams: teams.count)
        }
        return RankLine(rank: ranks[place], points: own.points, finds: own.finds, players: list.count,
                        ahead: place > 0 ? RankLine.Neighbour(list[place - 1]) : nil,
                        behind: place + 1 < list.count ? RankLine.Neighbour(list[place + 1]) : nil, team: team)
    }
}

/// A value written at its first use and kept; two first uses at once may each write it.
private final class WrittenOnce: Sendable {
    private let kept = Mutex<ByteBuffer?>(nil)

    func value(_ write: () -> ByteBuffer) -> ByteBuffer {
        if let kept = kept.withLock({ $0 }) { return kept }
        let made = write()
        return kept.withLock { kept in
            if let kept { return kept }
            kept = made
            return made
        }
    }
}

/// A player's own place on the leaderboard, who is just ahead and just behind, and their
/// team's place: the `rank` event, sent to that player's streams only, and only when it changed.
struct RankLine: Sendable, Equatable {
    struct Neighbour: Sendable, Equatable {
        var name: String
        var points: Int

        init(_ standing: Standing) {
            name = standing.name
            points = standing.points
        }

        func write(to json: inout JSONWriter) {
            json.beginObject()
            json.key("name"); json.string(name)
            json.key("points"); json.number(points)
            json.endObject()
        }
    }

    /// The player's team's line among the teams.
    struct Team: Sendable, Equatable {
        var name: String
        var rank, points, teams: Int
    }

    var rank, points, finds, players: Int
    var ahead, behind: Neighbour?
    var team: Team?

    var event: LiveEvent {
        var json = JSONWriter()
        json.beginObject()
        json.key("rank"); json.number(rank)
        json.key("points"); json.number(points)
        json.key("finds"); json.number(finds)
        json.key("players"); json.number(players)
        if let ahead { json.key("ahead"); ahead.write(to: &json) }
        if let behind { json.key("behind"); behind.write(to: &json) }
        if let team {
            json.key("team")
            json.beginObject()
            json.key("name"); json.string(team.name)
            json.key("rank"); json.number(team.rank)
            json.key("points"); json.number(team.points)
            json.key("teams"); json.number(team.teams)
            json.endObject()
        }
        json.endObject()
        return LiveEvent(name: LiveEvent.rank, json: json.text)
    }
}

/// What a stream hears of the standings. Every stream: the top of the leaderboard and the
/// number of players (one encoded message for all); each player's streams: their own rank,
/// and who is just ahead and behind, when any of it changed since they were last told. The
/// whole leaderboard is a request away (`GET /api/leaderboard`), never pushed: pushing it to
/// every phone on every change cost each phone bytes in proportion to the players, and the
/// server their square.
///
/// ``send()`` is called through ``LeaderboardNews``, so a phone hears at most one standings
/// update per interval, however many finds a burst holds.
///
/// ```swift
/// let news = StandingsNews(live: live, standings: standings)
/// await news.send()                                  // after a change, coalesced
/// let opening = try await news.opening(for: .player("P3"))   // a new stream's first events
/// ```
actor StandingsNews {
    /// How many lines of the top every stream hears.
    static let topCount = 10

    private let live: LiveEvents
    private let standings: CachedRead<RankedStandings>
    /// The rank each listening player was last told.
    private var told: [String: RankLine] = [:]
    /// The top every stream was last told: a change below it is news to the ranks it moved only.
    private var toldTop: String?
    /// Sends begun: a send that a later one overtook while it read gives way to it.
    private var begun = 0
    /// Sends made (those that gave way not counted): whose turn it is (``ranksInTurn(_:)``).
    private var made = 0
    /// Past this many listening players, a rank moved only by others' finds waits its turn
    /// (``ranksInTurn(_:)``).
    static let playersPerTurn = 2_000

    init(live: LiveEvents, standings: CachedRead<RankedStandings>) {
        self.live = live
        self.standings = standings
    }

    /// Sends the standings as they are now: the top to every stream when it changed, and
    /// their rank to the players whose rank changed. Nothing while nobody listens. Answers
    /// how many streams listen (``LeaderboardNews`` spaces the sends by it).
    @discardableResult
    func send() async -> Int {
        begun += 1
        let mine = begun
        let listeners = await live.listenerCount
        guard listeners > 0, let board = try? await standings.value() else { return listeners }
        let listening = Set(await live.listeningPlayers)
        // A later send began while this one read (the actor lets it in at each await): its
        // board is as new or newer. This one's, told after it, would leave a finder's own rank
        // as it was before the find, with nothing left to correct it.
        guard mine == begun else { return listeners }
        var ranks: [String: LiveEvent] = [:]
        made += 1
        let turns = Self.ranksInTurn(listening.count), turn = made % turns
        for player in listening {
            guard let line = board.rank(of: player), told[player] != line else { continue }
            if turns > 1, let was = told[player], was.points == line.points, was.finds == line.finds, was.team == line.team,
               Self.turn(of: player, among: turns) != turn { continue }
            told[player] = line
            ranks[player] = line.event
        }
        if told.count > listening.count { told = told.filter { listening.contains($0.key) } }
        let topChanged = board.top.json != toldTop
        toldTop = board.top.json
        await live.send(standings: topChanged ? board.top : nil, ranks: ranks)
        return listeners
    }

    /// In how many turns the players whose rank moved only by others' finds are told it. Early
    /// in a hunt each new finder moves the rank of every player still without a find, so every
    /// send told every phone: at 10,000 listening, 10,000 ranks to work out, write and post
    /// every two seconds, 100–450 ms of the server's time each, which held the requests back
    /// (the slowest claims came in the seconds after each send). With more than
    /// ``playersPerTurn`` listening, such a player is told at one send in this many (up to 5,
    /// each player at its own turn, so each send tells a share): within 10 s at 10,000. A
    /// player whose own points, finds or team changed is told at the next send, as with fewer.
    static func ranksInTurn(_ listening: Int) -> Int {
        min(5, max(1, (listening - 1) / playersPerTurn + 1))
    }

    /// The send, of every `turns`, at which `player`'s moved rank is told.
    static func turn(of player: String, among turns: Int) -> Int {
        var hash: UInt32 = 2_166_136_261   // FNV-1a: the same turn for a player from send to send
        for byte in player.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash % UInt32(turns))
    }

    /// What a new stream of `listener` opens with: the top, and a player's own rank.
    func opening(for listener: Listener) async throws -> [LiveEvent] {
        let board = try await standings.value()
        guard case .player(let player) = listener, let line = board.rank(of: player) else { return [board.top] }
        told[player] = line
        return [board.top, line.event]
    }
}
