import ArgumentParser
import Foundation
import HuntServer

/// `geoqr gm rotate-admin-token`.
struct GMRotateAdminTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-admin-token",
        abstract: "Give the hunt a new game-master link: the old admin link stops working.",
        discussion: """
        Use it when the admin link leaked (a screenshot, a shared laptop, a helper who left). \
        The new token is written to the data directory's server/HUNT.admin, in place of the \
        old one, and the new admin link is printed. A running geoqr serve on this data \
        directory notices within a few seconds, with no restart: from then on the old link \
        gets 403 and the control room must be opened again with the new link. Players are not \
        affected.

        The link is printed with --public-url (or $GEOQR_PUBLIC_URL) when given; otherwise \
        open the printed admin.html#token=… on the address geoqr serve printed.

        Examples:
          geoqr gm rotate-admin-token --hunt demo
          geoqr gm rotate-admin-token --hunt demo --public-url https://hunt.example.org --json
        """
    )

    @Option(help: "Hunt name (demo for caches/demo.json) or hunt file.")
    var hunt: String

    @OptionGroup var dataOptions: DataOptions

    @Option(name: .customLong("public-url"), help: ArgumentHelp("The address players reach the server at, for the printed link (default: $GEOQR_PUBLIC_URL).",
                               valueName: "URL"))
    var publicURL: PublicURL?

    @Flag(help: "Print the hunt, the new token and the link as JSON.")
    var json = false

    private struct Result: Encodable {
        let hunt: String
        let token: String
        /// The part of the link after the server's address.
        let adminPath: String
        /// The whole link, when the server's address is known.
        let adminLink: String?
    }

    func run() async throws {
        let huntID = try loadHunt(hunt, quietWarnings: true).hunt.id
        let data = try dataOptions.directory()
        let base = try publicURL ?? PublicURL.fromEnvironment()
        let admin: AdminToken
        do { admin = try AdminToken.rotate(directory: data.path, hunt: huntID) } catch { throw CommandFailure("\(error)") }
        let path = "admin.html#token=\(admin.value)"
        let link = base.map { "\($0.text)/\(path)" }
        if json { return try printJSON(Result(hunt: huntID, token: admin.value, adminPath: "/" + path, adminLink: link)) }
        print("hunt \(huntID) has a new admin token; the old admin link stops working within seconds, on a running server too")
        if let link {
            print("game master (keep private): \(link)")
        } else {
            print("game master (keep private): open /\(path) on the address geoqr serve printed")
        }
    }
}
