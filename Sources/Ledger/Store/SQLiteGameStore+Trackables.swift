import Foundation
import GRDB
import GeoQR

extension SQLiteGameStore {
    public func seedTrackable(name: String, into cache: String, in hunt: Hunt, by actor: String,
                              at time: Date) async throws -> Trackable {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let huntID = hunt.id
        return try await write { db in
            let event = try EventAppender.append(db, kind: .trackableSeeded, hunt: huntID, actor: actor, at: time) { seq in
                TrackableSeeded(trackable: "K\(seq)", name: name, cache: site.id)
            }
            return try Self.trackable(db, hunt: huntID, id: "K\(event.seq)")!
        }
    }

    public func pickUp(trackable: String, from cache: String, by player: String, in hunt: Hunt,
                       at time: Date) async throws -> Trackable {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let huntID = hunt.id, id = trackable.uppercased()
        return try await write { db in
            let playerID = try Self.requirePlayer(db, hunt: huntID, player)
            let row = try Self.trackableRow(db, hunt: huntID, id: id)
            let found = try Self.liveFindID(db, hunt: huntID, player: playerID, cache: site.id) != nil
            try Trackables.checkPickUp(trackable: id, sitsIn: row["in_cache_id"], at: site.id,
                                       by: playerID, playerHasFound: found)
            try EventAppender.append(db, kind: .trackablePickedUp, hunt: huntID, actor: playerID, at: time) { _ in
                TrackablePickedUp(trackable: id, player: playerID, cache: site.id)
            }
            return try Self.trackable(db, hunt: huntID, id: id)!
        }
    }

    public func drop(trackable: String, into cache: String, by player: String, in hunt: Hunt,
                     at time: Date) async throws -> Trackable {
        guard let site = hunt.cache(id: cache) else { throw GameRuleViolation.unknownCache(cache) }
        let huntID = hunt.id, id = trackable.uppercased()
        return try await write { db in
            let playerID = try Self.requirePlayer(db, hunt: huntID, player)
            let row = try Self.trackableRow(db, hunt: huntID, id: id)
            let from: String? = row["picked_from"]
            let found = try Self.liveFindID(db, hunt: huntID, player: playerID, cache: site.id) != nil
            try Trackables.checkDrop(trackable: id, holder: row["owner_id"], by: playerID, pickedUpFrom: from,
                                     into: site.id, playerHasFound: found)
            let distance = Trackables.tripDistance(from: from, to: site, in: hunt)
            try EventAppender.append(db, kind: .trackableDropped, hunt: huntID, actor: playerID, at: time) { _ in
                TrackableDropped(trackable: id, player: playerID, cache: site.id, distanceM: distance)
            }
            return try Self.trackable(db, hunt: huntID, id: id)!
        }
    }

    public func trackable(hunt: String, id: String) async throws -> Trackable? {
        let hunt = hunt.uppercased(), id = id.uppercased()
        return try await read { db in try Self.trackable(db, hunt: hunt, id: id) }
    }

    public func trackables(hunt: String) async throws -> [Trackable] {
        let hunt = hunt.uppercased()
        return try await read { db in
            try String.fetchAll(db.cached("SELECT id FROM items WHERE hunt = ? AND kind = 'trackable' ORDER BY CAST(SUBSTR(id, 2) AS INTEGER)"),
                                arguments: [hunt]).compactMap { try Self.trackable(db, hunt: hunt, id: $0) }
        }
    }

    static func trackableRow(_ db: Database, hunt: String, id: String) throws -> Row {
        guard let row = try Row.fetchOne(db.cached("SELECT * FROM items WHERE hunt = ? AND id = ?"), arguments: [hunt, id]) else {
            throw GameRuleViolation.unknownItem(id)
        }
        guard row["kind"] == "trackable" else { throw GameRuleViolation.notATrackable(id) }
        return row
    }

    static func trackable(_ db: Database, hunt: String, id: String) throws -> Trackable? {
        guard let row = try Row.fetchOne(db.cached("SELECT * FROM items WHERE hunt = ? AND id = ? AND kind = 'trackable'"),
                                         arguments: [hunt, id]) else { return nil }
        let trips = try Row.fetchAll(db.cached("SELECT * FROM trips WHERE trackable_id = ? ORDER BY leg"), arguments: [id]).map {
            let dropped: Int64? = $0["dropped_ms"]
            return Trip(leg: $0["leg"], player: $0["player_id"], from: $0["from_cache"], to: $0["to_cache"],
                        pickedUp: Date(millisecondsSince1970: $0["picked_ms"]),
                        dropped: dropped.map { Date(millisecondsSince1970: $0) }, distance: $0["distance_m"])
        }
        return Trackable(id: row["id"], name: row["name"], holder: row["owner_id"], cache: row["in_cache_id"], trips: trips)
    }
}
