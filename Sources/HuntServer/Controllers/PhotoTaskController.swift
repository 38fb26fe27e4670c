import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

/// Stations' photo tasks: a finder sends a photo (``Play/Game/submitPhoto(cache:photo:by:)``)
/// and sees how it was judged; the game master lists the photos, looks at each and approves or
/// rejects it with a reason (``Play/Game/judgePhoto(_:approve:reason:)``).
struct PhotoTaskController {
    let session: ServedHunt

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        group.get("caches/:id/photo-task", use: standing)
        group.post("caches/:id/photo", use: submit)
        let admin = group.group("admin").add(middleware: AdminOnly(session: session))
        admin.get("photo-tasks", use: list)
        admin.get("photo-tasks/:id/photo", use: photo)
        admin.post("photo-tasks/:id/approve") { try await self.judge($0, $1, approve: true) }
        admin.post("photo-tasks/:id/reject") { try await self.judge($0, $1, approve: false) }
    }

    /// The task as its finder sees it: what to photograph, and how their photos fared.
    @Sendable func standing(_ request: Request, context: HuntRequestContext) async throws -> PhotoTaskStanding {
        let (player, cache) = try await finder(request, context)
        return try await session.game.photoTaskStanding(cache: cache, of: player)
    }

    /// The player asking and the cache they name, once it has a photo task and they found it:
    /// checked before a photo is read, so no picture is decoded for a request the game refuses.
    private func finder(_ request: Request, _ context: HuntRequestContext) async throws -> (player: String, cache: String) {
        let player = try await session.player(request)
        let id = try session.game.hunt.cacheID(named: try context.parameters.require("id"))
        guard session.hunt.cache(id: id)?.challenge?.photoTask != nil else { throw GameRuleViolation.noPhotoTask(id) }
        guard try await session.found.caches(of: player).contains(id) else {
            throw GameRuleViolation.cacheNotFoundByPlayer(cache: id, player: player)
        }
        return (player, id)
    }

    /// `{"photo": "<base64 JPEG, PNG or HEIC>"}`.
    struct Sent: Decodable { var photo: String }

    @Sendable func submit(_ request: Request, context: HuntRequestContext) async throws -> EditedResponse<PhotoTaskStanding> {
        let player = try await session.player(request)
        try session.limiter.admit(.photo, client: player)
        let (_, cache) = try await finder(request, context)
        var request = request
        let body = try await request.json(Sent.self, limit: BodyLimits.photo)
        let photo = try await session.sentPhoto(body.photo, by: player)
        let sent = try await session.act { try await session.game.submitPhoto(cache: cache, photo: photo, by: player) }
        if let photos = session.taskPhotos {
            do { try photos.keep(photo, sha256: sent.photoSHA256) } catch {
                session.logger.error("photo \(sent.id) could not be kept in \(photos.folder): \(error)")
            }
        }
        return EditedResponse(status: .created, response: try await session.game.photoTaskStanding(cache: cache, of: player))
    }

    /// A photo as the control room lists it: who sent it for which cache, and its outcome.
    struct Listed: Encodable {
        var submission: PhotoSubmission
        var name: String
        var cacheName: String
        var task: String
        /// Where the control room fetches the photo (with the game master's token).
        var photoURL: String
    }

    struct Listing: ResponseEncodable { var photos: [Listed] }

    @Sendable func list(_ request: Request, context: HuntRequestContext) async throws -> Listing {
        var listed: [Listed] = []
        for sent in try await session.game.photoTasks() {
            let cache = session.hunt.cache(id: sent.cache)
            listed.append(Listed(submission: sent, name: try await session.players.player(id: sent.player)?.name ?? sent.player,
                                 cacheName: cache?.name ?? sent.cache, task: cache?.challenge?.photoTask ?? "",
                                 photoURL: "/api/admin/photo-tasks/\(sent.id)/photo"))
        }
        return Listing(photos: listed)
    }

    @Sendable func photo(_ request: Request, context: HuntRequestContext) async throws -> Response {
        let id = try context.parameters.require("id").uppercased()
        guard let sent = try await session.game.photoTasks().first(where: { $0.id == id }) else {
            throw GameRuleViolation.unknownSubmission(id)
        }
        guard let photo = session.taskPhotos?.photo(sha256: sent.photoSHA256) else {
            throw APIError.notFound("no-photo", "the photo of \(id) is not kept on this server")
        }
        return .keptPhoto(photo)
    }

    struct Judgement: Decodable { var reason: String? }

    func judge(_ request: Request, _ context: HuntRequestContext, approve: Bool) async throws -> PhotoSubmission {
        let id = try context.parameters.require("id")
        var request = request
        let reason = try await request.jsonIfSent(Judgement.self)?.reason ?? ""
        return try await session.act { try await session.game.judgePhoto(id, approve: approve, reason: reason) }
    }
}

extension PhotoTaskStanding: ResponseEncodable {}
extension PhotoSubmission: ResponseEncodable {}
