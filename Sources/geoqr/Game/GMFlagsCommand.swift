import ArgumentParser
import Foundation
import GeoQR
import Ledger

/// `geoqr gm flags`: finds that may not be honest, for the game master to look at.
struct GMFlagsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flags",
        abstract: "List finds the anti-cheat rules flag, for you to look at.",
        discussion: """
        A flag is not a rejection: look, then void the find (geoqr gm void) or leave it. \
        The rules, the same as the admin page's:
          too-fast            the player's previous find is too far for the time between the \
        two (faster than 200 km/h, measured on the ellipsoid)
          same-photo          another player's find used the very same photo (SHA-256)
          exact-coordinates   claimed from exactly the cache's coordinates, as a location \
        typed in from the sheet would be
        Voided finds raise no flags.

        Example:
          geoqr gm flags --hunt demo --json
        """
    )

    @OptionGroup var gameOptions: GameOptions

    @Flag(help: "Print the flags as a JSON array.")
    var json = false

    func run() async throws {
        let hunt = try gameOptions.loadedHunt()
        let store = try await gameOptions.ledger()
        let (flags, players) = try await orFail {
            (try await store.flags(in: hunt), try await store.players(hunt: hunt.id))
        }
        if json { return try printJSON(flags) }
        if flags.isEmpty { return print("no flags in \(hunt.id)") }
        let names = Dictionary(players.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        for flag in flags {
            print("\(flag.find) \(flag.kind.rawValue): \(names[flag.player] ?? flag.player) (\(flag.player)) at \(flag.cache): \(flag.detail)")
        }
    }
}
