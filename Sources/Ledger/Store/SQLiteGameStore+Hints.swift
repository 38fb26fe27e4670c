import Foundation
import GRDB
import GeoQR

extension SQLiteGameStore {
    public func revealHint(cache: String, cost: Int, to player: String, in hunt: Hunt,
                           at time: Date) async throws -> (reveal: HintReveal, isNew: Bool) {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let huntID = hunt.id
        return try await write { db in
            let playerID = try Self.requirePlayer(db, hunt: huntID, player)
            // Read and write in one transaction: two taps on "reveal" pay once.
            if let paid = try Self.hint(db, hunt: huntID, player: playerID, cache: site.id) { return (paid, false) }
            try EventAppender.append(db, kind: .hintRevealed, hunt: huntID, actor: playerID, at: time) { _ in
                HintRevealed(player: playerID, cache: site.id, cost: cost)
            }
            return (try Self.hint(db, hunt: huntID, player: playerID, cache: site.id)!, true)
        }
    }

    public func hints(hunt: String, player: String?) async throws -> [HintReveal] {
        let hunt = hunt.uppercased()
        return try await read { db in
            guard let player else {
                return try SQLRequest<Row>(literal: "SELECT * FROM hints WHERE hunt = \(hunt) ORDER BY seq").fetchAll(db).map(Self.hint)
            }
            let id = try Self.requirePlayer(db, hunt: hunt, player)
            return try SQLRequest<Row>(literal: "SELECT * FROM hints WHERE hunt = \(hunt) AND player_id = \(id) ORDER BY seq").fetchAll(db)
                .map(Self.hint)
        }
    }

    static func hint(_ db: Database, hunt: String, player: String, cache: String) throws -> HintReveal? {
        try SQLRequest<Row>(literal: """
            SELECT * FROM hints WHERE hunt = \(hunt) AND player_id = \(player) AND cache_id = \(cache)
            """).fetchOne(db).map(hint)
    }

    static func hint(_ row: Row) -> HintReveal {
        HintReveal(player: row["player_id"], cache: row["cache_id"], cost: row["cost"],
                   time: Date(millisecondsSince1970: row["revealed_ms"]))
    }
}
