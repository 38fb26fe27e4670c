import Foundation
import GeoQR
import Hummingbird
import Ledger

/// One hunt being played: the hunt, its secret, the ledger, who is signed in, who is
/// listening, and whether the game master has the hunt running. Every controller reads it.
///
/// ```swift
/// let session = HuntSession(hunt: hunt, secret: secret, store: try SQLiteGameStore(directory: dir),
///                           tokens: PlayerTokens(file: nil), admin: AdminToken(value: token))
/// let router = HuntRouter.build(session: session)
/// ```
public final class HuntSession: Sendable {
    /// What the game master chose for this session.
    public struct Options: Sendable {
        /// Show caches' coordinates to players (distance and bearing are always shown).
        public var showCoordinates: Bool
        /// Folder of the web app (index.html, app.js…) and openapi.yaml beside it.
        public var webFolder: String
        /// Claims that come within this many metres of an unfound cache are told so, once.
        public var proximity: Double

        public init(showCoordinates: Bool = true, webFolder: String, proximity: Double = 50) {
            self.showCoordinates = showCoordinates
            self.webFolder = webFolder
            self.proximity = proximity
        }
    }

    public let hunt: Hunt
    let secret: HuntSecret
    public let store: any GameStore
    let tokens: PlayerTokens
    let admin: AdminToken
    public let live: LiveEvents
    let limiter: RateLimiter
    let state: HuntState
    public let options: Options
    /// The present moment; tests pass a fixed one.
    let now: @Sendable () -> Date

    public init(hunt: Hunt, secret: HuntSecret, store: any GameStore, tokens: PlayerTokens, admin: AdminToken,
                options: Options, limiter: RateLimiter = RateLimiter(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.hunt = hunt
        self.secret = secret
        self.store = store
        self.tokens = tokens
        self.admin = admin
        self.live = LiveEvents()
        self.limiter = limiter
        self.state = HuntState(store: store, hunt: hunt.id)
        self.options = options
        self.now = now
    }

    /// The player the request's bearer token signs in; 401 without one or with an unknown one.
    func player(_ request: Request) async throws -> String {
        guard let token = Self.bearer(request) else { throw APIError.noToken }
        guard let player = await tokens.player(for: token) else { throw APIError.badToken }
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
        Self.bearer(request).map(PlayerTokens.sessionKey) ?? "anonymous"
    }

    static func bearer(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }

    /// Sends the current leaderboard to everyone listening.
    func broadcastLeaderboard() async {
        guard let standings = try? await store.leaderboard(hunt: hunt.id) else { return }
        await live.send(LiveEvent(name: "leaderboard", value: standings), to: nil)
    }
}
