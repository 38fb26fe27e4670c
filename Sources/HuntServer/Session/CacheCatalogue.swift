import Foundation
import GeoQR
import Ledger
import Play

/// The caches as one player sees them from one place: found or not, disabled, flagged by a
/// report, hints shown or priced (``Play/CacheHint``), and how far and which way, nearest
/// first.
struct CacheCatalogue {
    let session: ServedHunt

    func views(for player: String?, from here: Coordinate?) async throws -> [CacheView] {
        let hunt = session.hunt
        var found: Set<String> = [], paid: Set<String> = []
        if let player {
            found = try await session.found.caches(of: player)
            paid = try await session.game.revealedHints(of: player)
        }
        let flags = try await session.cacheFlags.value()
        let disabled = flags.disabled, flagged = flags.flagged
        let next = hunt.nextOnTrails(found: found)
        let views = hunt.caches.map { cache in
            let leg = here.map { Geodesic.inverse(from: $0, to: cache.coordinate) }
            let hint = CacheHint(cache, in: hunt, paid: paid.contains(cache.id), found: found.contains(cache.id))
            return CacheView(
                id: cache.id, name: cache.name, trail: hunt.trail(of: cache.id)?.name,
                difficulty: cache.difficulty, terrain: cache.terrain, points: cache.points,
                radiusM: hunt.radius(of: cache), hint: hint.text, hintCost: hint.cost, hintRevealed: hint.revealed,
                found: found.contains(cache.id), next: next.contains(cache.id), disabled: disabled.contains(cache.id), flagged: flagged.contains(cache.id),
                latitude: session.options.showCoordinates ? cache.coordinate.latitude : nil,
                longitude: session.options.showCoordinates ? cache.coordinate.longitude : nil,
                distanceM: leg.map { ($0.distance * 10).rounded() / 10 },
                bearingDeg: leg.map { ($0.initialBearing * 10).rounded() / 10 },
                direction: leg.map { CompassPoint(bearing: $0.initialBearing).name(in: RequestLanguage.current) },
                challenge: found.contains(cache.id) ? cache.challenge.map { $0.photoTask == nil ? "question" : "photo" } : nil)
        }
        guard here != nil else { return views }
        return views.sorted { ($0.distanceM ?? 0, $0.id) < ($1.distanceM ?? 0, $1.id) }
    }
}

/// Trackables by who holds them, for a player's own list (`/api/me/trackables`, which phones
/// poll): the ids come from the seeding events the session's ``EventReadModel`` has already read,
/// so a poll reads only the trackables, not the whole list of events.
struct TrackableIndex {
    let session: ServedHunt

    func all() async throws -> [Trackable] {
        var list: [Trackable] = []
        for id in try await session.index.trackables() {
            if let t = try await session.store.trackable(hunt: session.hunt.id, id: id) { list.append(t) }
        }
        return list
    }

    func held(by player: String) async throws -> [Trackable] {
        try await all().filter { $0.holder == player }
    }
}
