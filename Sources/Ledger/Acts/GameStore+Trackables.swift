import Foundation
import GeoQR

extension GameStore {
    /// The game master puts a new trackable into a cache.
    public func seedTrackable(name: String, into cache: String, in hunt: Hunt, by actor: String,
                              at time: Date) async throws -> Trackable {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let huntID = hunt.id
        return try await perform(LedgerAct { _ in
            let seeded = NewEvent(.trackableSeeded, hunt: huntID, actor: actor, at: time) { seq in
                TrackableSeeded(trackable: "K\(seq)", name: name, cache: site.id)
            }
            return Decision(events: [seeded]) { facts, appended in try facts.trackable(hunt: huntID, id: "K\(appended[0].seq)")! }
        })
    }

    /// A player who found the cache takes the trackable out of it.
    public func pickUp(trackable: String, from cache: String, by player: String, in hunt: Hunt,
                       at time: Date) async throws -> Trackable {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let huntID = hunt.id, id = trackable.uppercased()
        return try await perform(LedgerAct { facts in
            let playerID = try facts.requirePlayer(hunt: huntID, player)
            let row = try facts.trackableRow(hunt: huntID, id: id)
            let found = try facts.liveFindID(hunt: huntID, player: playerID, cache: site.id) != nil
            try Trackables.checkPickUp(trackable: id, sitsIn: row["in_cache_id"], at: site.id,
                                       by: playerID, playerHasFound: found)
            let picked = NewEvent(.trackablePickedUp, hunt: huntID, actor: playerID, at: time) { _ in
                TrackablePickedUp(trackable: id, player: playerID, cache: site.id)
            }
            return Decision(events: [picked]) { facts, _ in try facts.trackable(hunt: huntID, id: id)! }
        })
    }

    /// Its holder puts it into another cache they found, ending a trip.
    public func drop(trackable: String, into cache: String, by player: String, in hunt: Hunt,
                     at time: Date) async throws -> Trackable {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let huntID = hunt.id, id = trackable.uppercased()
        return try await perform(LedgerAct { facts in
            let playerID = try facts.requirePlayer(hunt: huntID, player)
            let row = try facts.trackableRow(hunt: huntID, id: id)
            let from: String? = row["picked_from"]
            let found = try facts.liveFindID(hunt: huntID, player: playerID, cache: site.id) != nil
            try Trackables.checkDrop(trackable: id, holder: row["owner_id"], by: playerID, pickedUpFrom: from,
                                     into: site.id, playerHasFound: found)
            let distance = Trackables.tripDistance(from: from, to: site, in: hunt)
            let dropped = NewEvent(.trackableDropped, hunt: huntID, actor: playerID, at: time) { _ in
                TrackableDropped(trackable: id, player: playerID, cache: site.id, distanceM: distance)
            }
            return Decision(events: [dropped]) { facts, _ in try facts.trackable(hunt: huntID, id: id)! }
        })
    }

    /// A trackable with its trips.
    public func trackable(hunt: String, id: String) async throws -> Trackable? {
        let hunt = hunt.uppercased(), id = id.uppercased()
        return try await query(LedgerRead(consistent: true) { facts in try facts.trackable(hunt: hunt, id: id) })
    }

    /// Every trackable of a hunt, in seeding order, with their trips.
    public func trackables(hunt: String) async throws -> [Trackable] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead(consistent: true) { facts in
            let items = try facts.rows("""
                SELECT * FROM items WHERE hunt = ? AND kind = 'trackable' ORDER BY CAST(SUBSTR(id, 2) AS BIGINT)
                """, hunt)
            let trips = Dictionary(grouping: try facts.rows("""
                SELECT t.* FROM trips t JOIN items i ON i.id = t.trackable_id
                WHERE i.hunt = ? AND i.kind = 'trackable' ORDER BY t.trackable_id, t.leg
                """, hunt), by: { $0["trackable_id"] as String })
            return items.map { Trackable(row: $0, trips: (trips[$0["id"]] ?? []).map(Trip.init(row:))) }
        })
    }
}
