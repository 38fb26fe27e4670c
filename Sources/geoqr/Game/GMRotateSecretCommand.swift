import ArgumentParser
import Foundation
import Play
import GeoQR
import HuntFiles
import Ledger

/// `geoqr gm rotate-secret`.
struct GMRotateSecretCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate-secret",
        abstract: "Give a hunt a new secret: every code printed before stops working.",
        discussion: """
        Use it when a sheet of codes leaked. Old codes are then refused as forged, so print the \
        sheet again (geoqr print) and replace the codes in the field. The ledger records the \
        rotation with the new secret's fingerprint, never the secret itself.

        The new secret is written beside the old one and renamed into place only once the \
        ledger has recorded it: if anything fails, the old secret stays in force.

        Example:
          geoqr gm rotate-secret --hunt demo
        """
    )

    @OptionGroup var gameOptions: GameOptions

    @Flag(help: "Print the new fingerprint as JSON.")
    var json = false

    private struct Result: Encodable {
        let hunt: String
        let fingerprint: String
    }

    func run() async throws {
        let game = try await gameOptions.game(ledgerMayBeNew: true)
        let hunt = game.hunt
        let data = try gameOptions.dataOptions.directory()
        let fingerprint = try await orFail { try await game.rotateSecret(in: data) }.value
        if json { return try printJSON(Result(hunt: hunt.id, fingerprint: fingerprint)) }
        print("hunt \(hunt.id) has a new secret (fingerprint \(fingerprint)): codes printed before now fail as forged; print them again")
    }
}
