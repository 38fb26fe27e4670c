import ArgumentParser
import Foundation
import GeoQR
import Ledger
import Play

/// `geoqr ledger show`: the history of a player or a cache, from the events.
struct LedgerShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show the ledger's history: everything, one player's, or one cache's.",
        discussion: """
        One line per event, oldest first: its number, time, who acted, what happened, and its \
        details. --player keeps a player's own acts and those that name them (trades offered \
        to them, points the game master gave); --cache keeps every claim, find, report and \
        game-master act on that cache. Both together keep what satisfies both. PIN hashes are \
        never shown.

        Examples:
          geoqr ledger show --hunt demo --player Ada
          geoqr ledger show --hunt demo --cache A2 --json
        """
    )

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "Only this hunt (needed to name a player or cache by name).")
    var hunt: String?

    @Option(help: ArgumentHelp("Only events of this player (name or id).", valueName: "P"))
    var player: String?

    @Option(help: ArgumentHelp("Only events about this cache (id or name).", valueName: "C"))
    var cache: String?

    @Flag(help: "Print one JSON object per event, one per line.")
    var json = false

    func validate() throws {
        if hunt == nil, player != nil || cache != nil {
            throw ValidationError("--player and --cache need --hunt: names belong to one hunt")
        }
    }

    func run() async throws {
        let store = try await storeOptions.ledger(data: dataOptions, mustExist: true)
        var filter = EventFilter()
        if let hunt {
            let h = try loadHunt(hunt, quietWarnings: true).hunt
            filter.hunt = h.id
            if let cache { filter.cache = try await orFail { try h.cacheID(named: cache) } }
            if let player {
                guard let p = try await orFail({ try await store.player(hunt: h.id, named: player) }) else {
                    throw CommandFailure("no player \(player) in hunt \(h.id)")
                }
                filter.player = p.id
            }
        }
        var after: Int64 = 0
        while true {
            let page = try await orFail { try await store.events(after: after, limit: 1000) }
            guard let last = page.last else { break }
            for event in page {
                guard try filter.matches(event) else { continue }
                if json {
                    // The body is the ledger's own canonical JSON: it goes in as written.
                    var line = "{\"actor\":\(Self.quoted(event.actor)),\"body\":\(event.body),\"hunt\":\(Self.quoted(event.hunt)),"
                    line += "\"kind\":\(Self.quoted(event.kind)),\"seq\":\(event.seq),\"time_ms\":\(event.timeMs)}\n"
                    FileHandle.standardOutput.write(Data(line.utf8))
                } else {
                    let time = ISO8601DateFormatter().string(from: event.time)
                    print("\(event.seq)  \(time)  \(event.hunt)  \(event.actor)  \(event.kind)  \(event.bodySummary)")
                }
            }
            after = last.seq
        }
    }

    static func quoted(_ text: String) -> String {
        var json = JSONWriter()
        json.string(text)
        return json.text
    }
}

/// Which events `ledger show` keeps.
struct EventFilter {
    var hunt: String?
    var player: String?
    var cache: String?

    /// True when the event is kept: its hunt, and a player it names (or who acted), and a cache
    /// it is about.
    func matches(_ event: LedgerEvent) throws -> Bool {
        if let hunt, event.hunt != hunt { return false }
        guard player != nil || cache != nil else { return true }
        let body = try event.decodedBody()
        if let player, event.actor != player, !body.players.contains(player) { return false }
        if let cache, !body.caches.contains(cache) { return false }
        return true
    }
}
