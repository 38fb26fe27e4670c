import Foundation
import Hummingbird
import Play

/// `/api/board`: the big screen's data, for the board link's token (or the game master's).
/// The board is made at most once every few seconds however many screens ask.
struct BoardController {
    let session: ServedHunt
    let cache = BoardCache()

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        group.get("board", use: board)
    }

    @Sendable func board(_ request: Request, context: HuntRequestContext) async throws -> PublicBoard {
        guard let token = ServedHunt.bearer(request) else { throw APIError.noToken }
        guard session.admin.matchesBoard(token) || session.admin.matches(token) else { throw APIError.notAdmin }
        return try await cache.value(now: session.now()) { try await session.game.publicBoard() }
    }
}

/// The last board made, kept for ``maxAge``.
actor BoardCache {
    static let maxAge: TimeInterval = 3
    private var kept: (board: PublicBoard, at: Date)?

    func value(now: Date, make: () async throws -> PublicBoard) async throws -> PublicBoard {
        if let kept, now.timeIntervalSince(kept.at) < Self.maxAge, now >= kept.at { return kept.board }
        let board = try await make()
        kept = (board, now)
        return board
    }
}

extension PublicBoard: ResponseEncodable {}
