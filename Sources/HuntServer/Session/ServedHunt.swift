import Foundation
import GeoQR
import Hummingbird
import Ledger
import Logging
import Play

/// One hunt as this server serves it: the ``Play/Game`` (the hunt, its secret, the ledger and
/// the rules that act on them, which every front end shares), who is listening here, and what
/// this server keeps of the ledger between requests. Who is signed in, wrong guesses and whether
/// the hunt is running live in the store, so any server on it answers any player.
/// Every controller reads it.
///
/// ```swift
/// let session = ServedHunt(hunt: hunt, secret: secret, store: try SQLiteGameStore(directory: dir),
///                           admin: AdminToken(value: token), options: .init())
/// let router = HuntRouter.build(session: session)
/// ```
public final class ServedHunt: Sendable {
    /// What the game master chose for this session.
    public struct Options: Sendable {
        /// Show caches' coordinates to players (distance and bearing are always shown).
        public var showCoordinates: Bool
        /// The web app and the API description: built in, or a folder (see ``WebApp``).
        public var webApp: WebApp
        /// Claims that come within this many metres of an unfound cache are told so, once.
        public var proximity: Double
        /// Standings news goes out at most this often, and less often with more than 5,000
        /// streams open (see ``LeaderboardNews`` and ``StandingsNews``): under a rush of finds
        /// a phone hears one update per interval.
        public var leaderboardInterval: Duration
        /// Where the photos sent with reports are kept (in the data directory); nil keeps none.
        public var reportPhotoFolder: String?
        /// What the map draws under the caches (see ``Basemap``).
        public var basemap: Basemap
        /// Leaflet, served at `/vendor/leaflet/`; nil when it is not installed (the web app
        /// then shows the list without a map).
        public var leaflet: Leaflet?
        /// The reverse proxies whose `X-Forwarded-For` names the client (`--behind-proxy`).
        public var trustedProxies: TrustedProxies

        public init(showCoordinates: Bool = true, webApp: WebApp = .builtIn, proximity: Double = Proximity.defaultDistance,
                    leaderboardInterval: Duration = .seconds(1), reportPhotoFolder: String? = nil,
                    basemap: Basemap = .none, leaflet: Leaflet? = nil, trustedProxies: TrustedProxies = TrustedProxies([])) {
            self.trustedProxies = trustedProxies
            self.showCoordinates = showCoordinates
            self.webApp = webApp
            self.proximity = proximity
            self.leaderboardInterval = leaderboardInterval
            self.reportPhotoFolder = reportPhotoFolder
            self.basemap = basemap
            self.leaflet = leaflet
        }
    }

    public let hunt: Hunt
    let secret: HuntSecret
    public let store: any GameStore
    let admin: AdminToken
    public let live: LiveEvents
    let limiter: RateLimiter
    let state: HuntState
    public let options: Options
    /// What streams hear of the standings (``StandingsNews``), sent through `standingsTold`
    /// at most once per ``Options/leaderboardInterval``.
    let standingsNews: StandingsNews
    let standingsTold: LeaderboardNews
    /// The leaderboard with each player's place, kept between changes (see
    /// ``broadcastLeaderboard()``).
    let standings: CachedRead<RankedStandings>
    /// Disabled caches and caches with an open report, kept between changes.
    let cacheFlags: CachedRead<CacheFlags>
    let index: EventReadModel
    /// Players by id and the caches each has found, kept between requests.
    let players: PlayerDirectory
    let found: FoundCaches
    /// Sign-ins checked in the last second (``CheckedSignIns``).
    let signedIn: CheckedSignIns
    /// The photos sent with reports, when the session keeps them.
    var reportPhotos: ReportPhotos? { options.reportPhotoFolder.map(ReportPhotos.init) }
    /// The photos sent for photo tasks, in a folder beside the reports' (`task-photos`).
    var taskPhotos: ReportPhotos? {
        options.reportPhotoFolder.map { ReportPhotos(folder: URL(fileURLWithPath: $0).deletingLastPathComponent().appendingPathComponent("task-photos").path) }
    }
    /// Players' last positions, for the control room's map.
    let whereabouts = Whereabouts()
    /// What each phone's check-in said, for the control room.
    let readiness = Readiness()
    /// The present moment; tests pass a fixed one.
    let now: @Sendable () -> Date
    /// The game's actions, on this session's ledger, clock and kept running state.
    let game: Game
    let logger = Logger(label: "geoqr.session")
    /// This process among the servers on the store, for the news it publishes (``ServerNews``).
    let serverID = UUID().uuidString
    /// True when other servers may share the store (it has ``Ledger/GameStore/notices()``).
    let othersHear: Bool
    /// Reads the events table for what every server should hear (``LedgerFollower``).
    let follower = LedgerFollower()
    /// What this server tells the others (``NewsPublisher``).
    let newsOut: NewsPublisher

    public init(hunt: Hunt, secret: HuntSecret, store: any GameStore, admin: AdminToken,
                options: Options, limiter: RateLimiter = RateLimiter(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.hunt = hunt
        let notices = store.notices()
        self.othersHear = notices != nil
        self.newsOut = NewsPublisher { [store] payload in try await store.publish(news: payload) }
        self.secret = secret
        self.store = store
        self.admin = admin
        let live = LiveEvents()
        self.live = live
        self.limiter = limiter
        let state = HuntState(store: store, hunt: hunt.id)
        self.state = state
        self.options = options
        self.now = now
        let huntID = hunt.id
        // Read whole once, then only the players the new events name (``LeaderboardBook``).
        let book = LeaderboardBook(store: store, hunt: huntID)
        let standings = CachedRead(maxAge: .seconds(1)) { RankedStandings(try await book.standings()) }
        self.standings = standings
        self.cacheFlags = CachedRead(maxAge: .seconds(1)) {
            CacheFlags(disabled: try await store.disabledCaches(hunt: huntID),
                       flagged: Set(try await store.openReports(hunt: huntID).map(\.cache)))
        }
        let standingsNews = StandingsNews(live: live, standings: standings)
        self.standingsNews = standingsNews
        self.standingsTold = LeaderboardNews(interval: options.leaderboardInterval) { await standingsNews.send() }
        self.index = EventReadModel(store: store, hunt: huntID)
        self.players = PlayerDirectory(store: store, hunt: huntID)
        self.found = FoundCaches(store: store, hunt: huntID)
        self.signedIn = CheckedSignIns(SignIns(store: store, hunt: huntID, clock: now))
        self.game = Game(hunt: hunt, secret: secret, store: store, clock: now, running: { try await state.running },
                         guesses: Guesses(store: store, hunt: hunt.id))
        follower.start(for: self, notices: notices)
    }

    /// Acts on what a game action did: forgets what it made stale and tells the control room
    /// how it was judged; the news of what the ledger recorded (finds, trades, a start or a
    /// stop) goes out from the events table (``LedgerFollower``), woken here, so every server
    /// tells it the same way. Controllers pass every outcome's effects here and keep nothing in
    /// step themselves.
    func apply(_ effects: [Effect]) async {
        var standings = false
        for effect in effects {
            switch effect {
            case .standingsChanged: standings = true
            case .findsChanged(let player): await found.changed(for: player)
            case .cacheFlagsChanged: await cacheFlags.invalidate()
            case .playerSeen(let player):
                players.remember(player)
                await tellEveryServer(LiveEvent(name: "player", value: player), to: .gameMaster)
            case .credentialsReset(let player):
                signedIn.forget(player: player)   // the reset ended them in the store, in its own transaction
            case .runningChanged(let running):
                await state.changed()
                if !running { await whereabouts.clear() }
            case .playerForgotten(let player): await forgetKept(of: player)
            case .positionsDropped: await whereabouts.clear()
            case .found, .tradeChanged, .coursesChanged: break   // news from the events table
            case .claimJudged(let claim, let verdict, let find, let points):
                await tellGameMaster(claim, verdict: verdict, find: find, points: points)
            }
        }
        if standings { await broadcastLeaderboard() }
        follower.wake()
    }

    /// Lets go of what the server keeps of a forgotten player: their sessions checked, their
    /// name, their last position.
    func forgetKept(of player: String) async {
        signedIn.forget(player: player)
        players.forget(player: player)
        await whereabouts.forget(player: player)
    }

    /// Runs an action, applying its effects, and those of its refusal when it was refused
    /// after changing something (a trade closed by a failed acceptance).
    func act<Value: Sendable>(_ action: () async throws -> Outcome<Value>) async throws -> Value {
        do {
            let outcome = try await action()
            await apply(outcome.effects)
            return outcome.value
        } catch let refusal as Refusal {
            await apply(refusal.effects)
            throw refusal.reason
        }
    }

    /// The control room's feed: every recorded claim as it is judged, refused ones included.
    private func tellGameMaster(_ claim: ClaimRecord, verdict: Verdict, find: String?, points: Int?) async {
        // A control room may be open on another server: the news goes out whether or not one
        // is open here, where the store can tell other servers.
        guard live.gameMasterListening || othersHear else { return }
        let who = try? await players.player(id: claim.player)
        await tellEveryServer(LiveEvent(name: "claim", value: FeedLine(claim, verdict: verdict, find: find, points: points,
                                                                       name: who?.name ?? claim.player, team: who?.team,
                                                                       in: hunt, at: now())), to: .gameMaster)
    }

    /// The player the request's bearer token signs in; 401 without one or with an unknown one.
    func player(_ request: Request) async throws -> String {
        guard let token = Self.bearer(request) else { throw APIError.noToken }
        guard let player = try await signedIn.player(for: token) else { throw APIError.badToken }
        return player
    }

    /// Passes only requests carrying the game master's token; 401 without a token, 403 with
    /// any other (a player's token included).
    func requireAdmin(_ request: Request) throws {
        guard let token = Self.bearer(request) else { throw APIError.noToken }
        guard admin.matches(token) else { throw APIError.notAdmin }
    }

    /// The session key of the request's token, for what is told once per session.
    func sessionKey(_ request: Request) -> String {
        Self.bearer(request).map(SignIns.sessionKey) ?? "anonymous"
    }

    static func bearer(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        // Spaces and tabs around the token (a header's own whitespace); Foundation's trimming
        // cost 2% of the server's time under load.
        var token = parts[1]
        while token.first == " " || token.first == "\t" { token.removeFirst() }
        while token.last == " " || token.last == "\t" { token.removeLast() }
        return String(token)
    }

    /// The standings have changed (a join, a find, a trade, a game-master act): forget the
    /// kept leaderboard and tell everyone listening, coalescing bursts of changes.
    func broadcastLeaderboard() async {
        await standings.invalidate()
        await standingsTold.changed()
    }
}

/// Which caches are closed by the game master and which have an open report.
struct CacheFlags: Sendable {
    var disabled: Set<String>
    var flagged: Set<String>
}
