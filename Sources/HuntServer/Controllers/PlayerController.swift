import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

/// Joining, signing in, and what a player asks about themself: their finds, cards,
/// trackables and points; and their position, which brings proximity news.
struct PlayerController {
    let session: ServedHunt

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        group.post("join", use: join)
        group.post("signin", use: signIn)
        group.post("signout", use: signOut)
        group.get("me", use: me)
        group.get("me/finds", use: finds)
        group.get("me/collection", use: collection)
        group.get("me/trackables", use: trackables)
        group.post("me/position", use: position)
        group.post("me/readiness", use: readiness)
    }

    @Sendable func join(_ request: Request, context: HuntRequestContext) async throws -> EditedResponse<SignedIn> {
        try session.limiter.admit(.join, client: context.clientNetwork)
        var request = request
        let credentials = try await request.json(Credentials.self)
        let player = try await session.act {
            try await session.game.join(name: credentials.name, pin: credentials.pin, team: credentials.team)
        }
        let token = try await session.game.signIns.issue(for: player.id, at: session.now())
        try await session.game.trustNetwork(of: context.clientKey, for: player)
        return EditedResponse(status: .created, response: SignedIn(token: token, player: player))
    }

    @Sendable func signIn(_ request: Request, context: HuntRequestContext) async throws -> SignedIn {
        try session.limiter.admit(.signIn, client: context.clientNetwork)
        var request = request
        let credentials = try await request.json(Credentials.self)
        let player = try await session.act { try await session.game.signIn(name: credentials.name, pin: credentials.pin, from: context.clientKey) }
        return SignedIn(token: try await session.game.signIns.issue(for: player.id, at: session.now()), player: player)
    }

    /// Ends the session the request carries, or with `?all=true` every session of its player
    /// (a phone left somewhere): from then on those tokens get 401, on every server.
    @Sendable func signOut(_ request: Request, context: HuntRequestContext) async throws -> SignedOut {
        let id = try await session.player(request)
        guard let token = ServedHunt.bearer(request) else { throw APIError.noToken }
        let all: Bool
        switch request.uri.queryParameters["all"].map({ $0.lowercased() }) {
        case nil, "false": all = false
        case "true": all = true
        case let other?: throw APIError.badRequest("bad-query", "all is true or false, not \(other.prefix(20))")
        }
        if all {
            try await session.game.signIns.endAll(of: id)
            session.signedIn.forget(player: id)
        } else {
            try await session.game.signIns.end(token)
            session.signedIn.forget(token: token)
        }
        session.tellOtherServers(signedOut: id)
        return SignedOut(ok: true, all: all)
    }

    struct SignedOut: ResponseEncodable { var ok: Bool; var all: Bool }

    @Sendable func me(_ request: Request, context: HuntRequestContext) async throws -> Me {
        let id = try await session.player(request)
        guard let player = try await session.players.player(id: id) else { throw APIError.badToken }
        let standing = try await session.standings.value().standing(of: id)
        return Me(player: player, points: standing?.points ?? 0, finds: standing?.finds ?? 0)
    }

    @Sendable func finds(_ request: Request, context: HuntRequestContext) async throws -> FindList {
        let id = try await session.player(request)
        return FindList(finds: try await session.store.finds(hunt: session.hunt.id, player: id))
    }

    @Sendable func collection(_ request: Request, context: HuntRequestContext) async throws -> CardList {
        let id = try await session.player(request)
        return CardList(cards: try await session.store.collection(hunt: session.hunt.id, player: id))
    }

    @Sendable func trackables(_ request: Request, context: HuntRequestContext) async throws -> TrackableList {
        let id = try await session.player(request)
        return TrackableList(trackables: try await TrackableIndex(session: session).held(by: id))
    }

    /// What the phone's check-in found (`/checkin.html`), for the game master's list.
    struct ReadinessReport: Decodable {
        var secure, camera, location, offline, wakeLock: Bool
        var accuracy: Double?
    }

    @Sendable func readiness(_ request: Request, context: HuntRequestContext) async throws -> PhoneCheck {
        let id = try await session.player(request)
        var request = request
        let body = try await request.json(ReadinessReport.self)
        let accuracy = try Position.accuracy(body.accuracy)
        let check = PhoneCheck(player: id, secure: body.secure, camera: body.camera, location: body.location,
                               accuracyM: accuracy, offline: body.offline, wakeLock: body.wakeLock, at: session.now())
        await session.readiness.report(check)
        await session.tellEveryServer(LiveEvent(name: "readiness", value: check), to: .gameMaster)
        return check
    }

    /// The phone reports where it is; the answer is the caches sorted by distance, and any
    /// unfound cache within the proximity distance is announced once per sign-in session. The
    /// position is kept for the game master's map (and shown to nobody else).
    @Sendable func position(_ request: Request, context: HuntRequestContext) async throws -> CacheList {
        let id = try await session.player(request)
        try session.limiter.admit(.position, client: id)
        var request = request
        let here = try await request.json(Position.self).checked()
        let fix = await session.whereabouts.report(player: id, latitude: here.coordinate.latitude,
                                                   longitude: here.coordinate.longitude, accuracy: here.accuracy, time: session.now())
        // Only a control room hears positions: with none open anywhere, there is nothing to encode.
        if session.live.gameMasterListening || session.othersHear {
            await session.tellEveryServer(LiveEvent(name: "position", value: fix), to: .gameMaster)
        }
        let caches = try await CacheCatalogue(session: session).views(for: id, from: here.coordinate)
        let near = caches.filter {
            Proximity.announces(found: $0.found, disabled: $0.disabled, distance: $0.distanceM, within: session.options.proximity)
        }
        // Most reports are near no unfound cache: they do not wait for the streams' actor.
        let fresh = near.isEmpty ? [] : await session.live.firstMentions(of: near.map(\.id), session: session.sessionKey(request))
        for cacheID in fresh {
            guard let view = near.first(where: { $0.id == cacheID }) else { continue }
            struct Near: Encodable { var cache, name: String; var distanceM: Double?; var direction: String? }
            await session.live.send(LiveEvent(name: "proximity", value: Near(
                cache: view.id, name: view.name, distanceM: view.distanceM, direction: view.direction)), to: id)
        }
        return CacheList(caches: caches)
    }
}
extension PhoneCheck: ResponseEncodable {}
