import GeoQR
import Ledger

/// The names of a hunt's players as a ``GeoQR/NameRegister``, for checking a new name against
/// all of them without reading all of them on each join: filled from the ledger's players once,
/// then brought up to date from the joins among the events appended since (by this server, by
/// another on the same store, by `geoqr gm`). A game keeps one for its life.
///
/// ```swift
/// let register = try await knownNames.current(in: store, hunt: "DEMO")
/// ```
actor KnownNames {
    private var register = NameRegister()
    /// The last event read into `register`; nil until it is first filled.
    private var through: Int64?

    /// The register as the ledger stands now.
    func current(in store: any GameStore, hunt: String) async throws -> NameRegister {
        if let seq = through {
            var after = seq
            while true {
                let events = try await store.events(after: after, limit: 2_000)
                for event in events where event.kind == EventKind.playerJoined.rawValue && event.hunt == hunt {
                    if case .playerJoined(let joined) = try event.decodedBody(), !joined.name.isEmpty { add(joined.name) }
                }
                guard let last = events.last else { break }
                after = last.seq
            }
            through = after
        } else {
            // The head first: a join between the two reads is then read again, not missed.
            let head = try await store.headSeq()
            for player in try await store.players(hunt: hunt) { add(player.name) }
            through = head
        }
        return register
    }

    /// Lets go of every name read, so that the next check reads them anew from the players
    /// table: a player was forgotten, and their name is no longer anyone's.
    func forget() {
        register = NameRegister()
        through = nil
    }

    private func add(_ name: String) {
        register.add(name, skeleton: NameSkeletons.skeleton)
    }
}
