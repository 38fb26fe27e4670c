import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

/// A cache's hint on request: free hints are answered as they are; a paid one (the hunt's
/// `hintCost`) is recorded once and taken off the player's score (``Play/Game/revealHint(cache:by:)``).
struct HintController {
    let session: ServedHunt

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        group.post("caches/:id/hint", use: reveal)
    }

    @Sendable func reveal(_ request: Request, context: HuntRequestContext) async throws -> RevealedHint {
        let player = try await session.player(request)
        let cache = try context.parameters.require("id")
        return try await session.act { try await session.game.revealHint(cache: cache, by: player) }
    }
}

extension RevealedHint: ResponseEncodable {}
