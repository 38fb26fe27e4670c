import ArgumentParser
import Foundation
import Ledger

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
        let store = try dataOptions.ledger(mustExist: true)
        var filter = EventFilter()
        if let hunt {
            let h = try loadHunt(hunt, quietWarnings: true).hunt
            filter.hunt = h.id
            if let cache { filter.cache = try h.cacheID(named: cache) }
            if let player {
                guard let p = try await game({ try await store.player(hunt: h.id, named: player) }) else {
                    throw fail("no player \(player) in hunt \(h.id)")
                }
                filter.player = p.id
            }
        }
        var after: Int64 = 0
        while true {
            let page = try await game { try await store.events(after: after, limit: 1000) }
            guard let last = page.last else { break }
            for event in page {
                guard let body = filter.matches(event) else { continue }
                if json {
                    let shown: [String: Any] = ["seq": event.seq, "time_ms": event.timeMs, "hunt": event.hunt,
                                                "actor": event.actor, "kind": event.kind, "body": body]
                    let line = try JSONSerialization.data(withJSONObject: shown, options: [.sortedKeys, .withoutEscapingSlashes])
                    FileHandle.standardOutput.write(line + Data("\n".utf8))
                } else {
                    let time = ISO8601DateFormatter().string(from: event.time)
                    print("\(event.seq)  \(time)  \(event.hunt)  \(event.actor)  \(event.kind)  \(Self.summary(body))")
                }
            }
            after = last.seq
        }
    }

    /// `key=value` pairs of the body's top level, nested values as compact JSON.
    static func summary(_ body: [String: Any]) -> String {
        body.keys.sorted().map { key in
            let value = body[key]!
            if let s = value as? String { return "\(key)=\(s)" }
            let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])) ?? Data()
            return "\(key)=\(String(decoding: data, as: UTF8.self))"
        }.joined(separator: " ")
    }
}

/// Which events `ledger show` keeps.
struct EventFilter {
    var hunt: String?
    var player: String?
    var cache: String?

    /// Body keys that name a player or a cache somewhere in the events' JSON.
    static let playerKeys: Set<String> = ["player", "from", "to"]
    static let cacheKeys: Set<String> = ["cache"]

    /// The event's body without secrets when it is kept, else nil.
    func matches(_ event: LedgerEvent) -> [String: Any]? {
        if let hunt, event.hunt != hunt { return nil }
        guard var body = (try? JSONSerialization.jsonObject(with: Data(event.body.utf8))) as? [String: Any] else { return nil }
        body.removeValue(forKey: "pinHash")
        if let player, event.actor != player, !Self.names(player, under: Self.playerKeys, in: body) { return nil }
        if let cache, !Self.names(cache, under: Self.cacheKeys, in: body) { return nil }
        return body
    }

    /// True when some value at any depth under one of `keys` is `id`.
    static func names(_ id: String, under keys: Set<String>, in value: Any) -> Bool {
        if let dict = value as? [String: Any] {
            return dict.contains { key, v in (keys.contains(key) && v as? String == id) || names(id, under: keys, in: v) }
        }
        if let array = value as? [Any] { return array.contains { names(id, under: keys, in: $0) } }
        return false
    }
}
