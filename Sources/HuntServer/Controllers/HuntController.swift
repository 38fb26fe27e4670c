import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

/// What anyone at the session may read: the hunt, its caches (public fields only, distance
/// and bearing from `?latitude=&longitude=`), the players, the leaderboard, the API's
/// OpenAPI description.
struct HuntController {
    let session: ServedHunt

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        group.get("hunt", use: hunt)
        group.get("caches", use: caches)
        group.get("players", use: players)
        group.get("players/:id/items", use: items)
        group.get("leaderboard", use: leaderboard)
        group.get("openapi.yaml", use: openAPI)
    }

    @Sendable func hunt(_ request: Request, context: HuntRequestContext) async throws -> HuntView {
        let h = session.hunt
        return HuntView(id: h.id, name: h.name, radiusM: h.defaultRadius, start: h.start, end: h.end,
                        running: try await session.state.running, coordinatesShown: session.options.showCoordinates,
                        trails: h.trails.map { TrailView(id: $0.id, name: $0.name, ordered: $0.ordered, caches: $0.cacheIDs) },
                        caches: h.caches.count, teams: h.teams, hintCost: h.hintCost,
                        offlineGraceMinutes: h.offlineGraceMinutes, positionRetentionHours: h.positionRetentionHours,
                        codePatterns: CodePatterns.cacheID)
    }

    /// Signed-in players also see which caches they found.
    @Sendable func caches(_ request: Request, context: HuntRequestContext) async throws -> CacheList {
        let player = request.headers[.authorization] == nil ? nil : try await session.player(request)
        let here = try ClaimController.location(try request.number("latitude"), try request.number("longitude"), nil)
        return CacheList(caches: try await CacheCatalogue(session: session).views(for: player, from: here?.coordinate))
    }

    @Sendable func players(_ request: Request, context: HuntRequestContext) async throws -> PlayerList {
        let all = try await session.store.players(hunt: session.hunt.id)
        return PlayerList(players: all.map { PublicPlayer(id: $0.id, name: $0.name, team: $0.team) })
    }

    /// What another player holds, to ask for in a trade: card ids and cache names, never the
    /// cards' messages (those are revealed only by finding the cache).
    @Sendable func items(_ request: Request, context: HuntRequestContext) async throws -> ItemList {
        _ = try await session.player(request)
        return ItemList(items: try await session.game.items(of: try context.parameters.require("id")))
    }

    /// The players' standings, and the teams' summed from them.
    @Sendable func leaderboard(_ request: Request, context: HuntRequestContext) async throws -> Response {
        let board = try await session.standings.value()
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: board.answer))
    }

    @Sendable func openAPI(_ request: Request, context: HuntRequestContext) async throws -> Response {
        guard let description = session.options.webApp.contents(of: "openapi.yaml") else {
            throw APIError.notFound("no-openapi", "no openapi.yaml beside the web app's folder (--web DIR serves DIR/../openapi.yaml)")
        }
        return Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: description)))
    }
}
