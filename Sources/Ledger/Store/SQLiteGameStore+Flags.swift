import Foundation
import GeoQR

extension SQLiteGameStore {
    public func flags(in hunt: Hunt) async throws -> [CheatFlag] {
        let finds = try await finds(hunt: hunt.id, player: nil)
        return CheatFlags.flags(finds.filter { $0.voidReason == nil }.map(\.facts), in: hunt)
    }
}

extension Find {
    /// What the anti-cheat rules look at.
    public var facts: FindFacts {
        FindFacts(id: id, player: player, cache: cache, time: time, location: location, photoSHA256: photoSHA256)
    }
}
