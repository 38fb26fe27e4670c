import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

/// The game master's endpoints, all behind the admin token: players and where they are,
/// finds, reports (with their photos) and flags; the control room's live stream; start and
/// stop; disable a cache; void a find; adjust points; resolve a report; broadcast; seed a
/// trackable; forget a player; export the ledger.
struct AdminController {
    let session: ServedHunt

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        let admin = group.group("admin").add(middleware: AdminOnly(session: session))
        admin.get("overview", use: overview)
        admin.get("live") { request, context in
            try await LiveController(session: session).stream(for: .gameMaster, token: "game master", request: request, context: context)
        }
        admin.post("players/:id/points", use: adjust)
        admin.get("reports/:id/photo", use: reportPhoto)
        admin.post("hunt/start") { _, _ in try await self.run(true) }
        admin.post("hunt/stop") { _, _ in try await self.run(false) }
        admin.post("caches/:id/disable") { try await self.disable($0, $1, true) }
        admin.post("caches/:id/enable") { try await self.disable($0, $1, false) }
        admin.post("finds/:id/void", use: void)
        admin.post("players/:id/pin", use: resetPIN)
        admin.post("players/:id/forget", use: forget)
        admin.post("reports/:id/resolve", use: resolve)
        admin.post("broadcast", use: broadcast)
        admin.post("trackables", use: seed)
        admin.get("ledger", use: export)
    }

    struct Overview: ResponseEncodable {
        var running: Bool
        var listeners: Int
        var players: [Player]
        var finds: [Find]
        var reports: [Report]
        var disabled: [String]
        /// Every player's line with its rank, as the phones and the big screen number them.
        var standings: [Results.Placing]
        /// The players grouped by team, with each team's total (``Play/TeamGroup``).
        var teams: [TeamGroup]
        var flags: [CheatFlag]
        /// Each player's last reported position (shown to the game master only).
        var positions: [PositionFix]
        /// What each player's phone check-in said (`/checkin.html`).
        var readiness: [PhoneCheck]
        /// The server's clock, so the page can tell a position's age whatever the laptop's clock says.
        var now: Date
        /// Every cache with its coordinates, for the control room's map (shown even when
        /// players are not shown coordinates).
        var caches: [Site]
    }

    struct Site: Encodable {
        var id, name: String
        var latitude, longitude, radiusM: Double
        var trail: String?
        /// Someone has a find of it that counts (a voided one does not).
        var found: Bool
        /// The next cache on its ordered trail, of the caches found by anyone.
        var next: Bool
        /// The game master closed it.
        var disabled: Bool
    }

    @Sendable func overview(_ request: Request, context: HuntRequestContext) async throws -> Overview {
        let hunt = session.hunt.id, store = session.store
        let players = try await store.players(hunt: hunt), standings = try await store.leaderboard(hunt: hunt)
        let found = Set(try await store.liveFinds(hunt: hunt, player: nil).map(\.cache))
        let disabled = try await store.disabledCaches(hunt: hunt)
        let next = session.hunt.nextOnTrails(found: found)
        return Overview(running: try await session.state.running, listeners: await session.live.listenerCount,
                        players: players, finds: try await store.finds(hunt: hunt, player: nil),
                        reports: try await store.openReports(hunt: hunt),
                        disabled: disabled.sorted(),
                        standings: Results.ranked(standings), teams: TeamGroup.group(players, standings: standings),
                        flags: try await session.game.flags(), positions: await session.whereabouts.all(),
                        readiness: await session.readiness.all(), now: session.now(),
                        caches: session.hunt.caches.map { c in
                            Site(id: c.id, name: c.name, latitude: c.coordinate.latitude, longitude: c.coordinate.longitude,
                                 radiusM: session.hunt.radius(of: c), trail: session.hunt.trail(of: c.id)?.id,
                                 found: found.contains(c.id), next: next.contains(c.id), disabled: disabled.contains(c.id))
                        })
    }

    struct Done: ResponseEncodable { var ok = true }

    func run(_ running: Bool) async throws -> Done {
        _ = try await session.act { try await session.game.setRunning(running) }
        return Done()
    }

    struct Reason: Decodable { var reason: String? }

    func disable(_ request: Request, _ context: HuntRequestContext, _ disabled: Bool) async throws -> Done {
        let id = try context.parameters.require("id")
        var request = request
        let reason = try await request.jsonIfSent(Reason.self)?.reason
        _ = try await session.act { try await session.game.setCacheDisabled(disabled, cache: id, reason: reason) }
        return Done()
    }

    @Sendable func void(_ request: Request, context: HuntRequestContext) async throws -> Find {
        let id = try context.parameters.require("id")
        var request = request
        let reason = try await request.jsonIfSent(Reason.self)?.reason ?? ""
        return try await session.act { try await session.game.voidFind(id, reason: reason) }
    }

    struct NewPIN: Decodable { var pin: String }

    /// A new PIN for a player who forgot theirs or locked themself out.
    @Sendable func resetPIN(_ request: Request, context: HuntRequestContext) async throws -> Player {
        let id = try context.parameters.require("id")
        var request = request
        let body = try await request.json(NewPIN.self)
        return try await session.act { try await session.game.resetPIN(of: id, to: body.pin) }
    }

    /// Forgets a player who asked (``Play/Game/forgetPlayer(_:photoFolders:)``).
    @Sendable func forget(_ request: Request, context: HuntRequestContext) async throws -> ForgottenPlayer {
        let id = try context.parameters.require("id")
        return try await session.act { try await session.game.forgetPlayer(id, photoFolders: [session.reportPhotos?.folder, session.taskPhotos?.folder].compactMap { $0 }) }
    }

    struct Adjustment: Decodable { var amount: Int; var reason: String }

    /// Adds or takes points (`{"amount": -5, "reason": "left the trail"}`); answers the standing after.
    @Sendable func adjust(_ request: Request, context: HuntRequestContext) async throws -> Standing {
        let id = try context.parameters.require("id")
        var request = request
        let body = try await request.json(Adjustment.self)
        guard let player = try await session.players.player(id: id) else { throw GameRuleViolation.unknownPlayer(id) }
        return try await session.act { try await session.game.adjustPoints(of: player.name, by: body.amount, reason: body.reason) }
    }

    /// The photo a player sent with a report, when the server kept it.
    @Sendable func reportPhoto(_ request: Request, context: HuntRequestContext) async throws -> Response {
        let id = try context.parameters.require("id").uppercased()
        let reports = try await session.store.openReports(hunt: session.hunt.id)
        guard let report = reports.first(where: { $0.id == id }) else {
            throw APIError.notFound("unknown-report", "no open report \(id)")
        }
        guard let sha = report.photoSHA256, let photo = session.reportPhotos?.photo(sha256: sha) else {
            throw APIError.notFound("no-photo", "report \(id) came without a photo")
        }
        return .keptPhoto(photo)
    }

    struct Resolution: Decodable { var resolution: String }

    @Sendable func resolve(_ request: Request, context: HuntRequestContext) async throws -> Report {
        let id = try context.parameters.require("id")
        var request = request
        let body = try await request.json(Resolution.self)
        return try await session.act { try await session.game.resolveReport(id, resolution: body.resolution) }
    }

    struct Broadcast: Codable { var message: String }

    @Sendable func broadcast(_ request: Request, context: HuntRequestContext) async throws -> Done {
        var request = request
        let text = try session.game.broadcastText(try await request.json(Broadcast.self).message)
        await session.tellEveryServer(LiveEvent(name: "broadcast", value: Broadcast(message: text)), to: .everyone)
        return Done()
    }

    struct Seed: Decodable { var name: String; var cache: String }

    @Sendable func seed(_ request: Request, context: HuntRequestContext) async throws -> EditedResponse<Trackable> {
        var request = request
        let body = try await request.json(Seed.self)
        let t = try await session.act { try await session.game.seedTrackable(named: body.name, into: body.cache) }
        return EditedResponse(status: .created, response: t)
    }

    /// The ledger's events as JSON lines, hash chain included, in the form to publish (no
    /// position, report text or PIN check; `geoqr ledger verify FILE` or
    /// scripts/verify-ledger-export.py check it); `?private=1` gives every event as stored.
    @Sendable func export(_ request: Request, context: HuntRequestContext) async throws -> Response {
        let complete = request.uri.queryParameters["private"].map { ["true", "1", "yes"].contains($0.lowercased()) } ?? false
        let form: LedgerExportForm = complete ? .complete : .published
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = Data()
        for event in try await session.store.events(after: 0, limit: Int.max) {
            out.append(try encoder.encode(event.exported(form)))
            out.append(0x0A)
        }
        return Response(status: .ok, headers: [.contentType: "application/x-ndjson",
                                                .contentDisposition: "attachment; filename=\"\(session.hunt.id)-ledger\(form == .complete ? "-private" : "").jsonl\""],
                        body: .init(byteBuffer: ByteBuffer(bytes: out)))
    }
}

/// Lets through only requests with the game master's token.
struct AdminOnly: RouterMiddleware {
    let session: ServedHunt
    func handle(_ request: Request, context: HuntRequestContext,
                next: (Request, HuntRequestContext) async throws -> Response) async throws -> Response {
        try session.requireAdmin(request)
        return try await next(request, context)
    }
}
