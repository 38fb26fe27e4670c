import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play
import QRImaging

/// "Needs maintenance" reports from players, and trackables picked up and dropped.
struct ReportController {
    let session: ServedHunt

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        group.post("reports", use: file)
        group.post("trackables/:id/pickup") { try await self.move($0, $1, pickUp: true) }
        group.post("trackables/:id/drop") { try await self.move($0, $1, pickUp: false) }
    }

    /// `{"cache": "A1", "kind": "missing", "text": "…", "photo": "<base64 JPEG>"}`; the ledger
    /// keeps the photo's SHA-256, the data directory the photo (for the game master's eyes).
    struct Filing: Decodable {
        var cache: String
        var kind: String
        var text: String?
        var photo: String?
    }

    @Sendable func file(_ request: Request, context: HuntRequestContext) async throws -> EditedResponse<Report> {
        let player = try await session.player(request)
        try session.limiter.admit(.report, client: player)
        var request = request
        let body = try await request.json(Filing.self, limit: BodyLimits.photo)
        guard let kind = ReportKind(rawValue: body.kind) else {
            throw APIError(.unprocessableContent, "bad-kind",
                           "kind is one of \(ReportKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var photo: Data?
        if let text = body.photo {
            // Kept as a small JPEG made on the picture pool, never as sent.
            photo = try await session.sentPhoto(text, by: player)
        }
        let report = try await session.act {
            try await session.game.fileReport(on: body.cache, kind: kind, text: body.text ?? "", photo: photo, by: player)
        }
        if let photo, let sha = report.photoSHA256, let photos = session.reportPhotos {
            do { try photos.keep(photo, sha256: sha) } catch {
                session.logger.error("report \(report.id)'s photo could not be kept in \(photos.folder): \(error)")
            }
        }
        return EditedResponse(status: .created, response: report)
    }

    struct At: Decodable { var cache: String }

    func move(_ request: Request, _ context: HuntRequestContext, pickUp: Bool) async throws -> Trackable {
        let player = try await session.player(request)
        let id = try context.parameters.require("id")
        var request = request
        let cache = try await request.json(At.self).cache
        if pickUp { return try await session.act { try await session.game.pickUp(id, from: cache, by: player) } }
        return try await session.act { try await session.game.drop(id, into: cache, by: player) }
    }
}
