import ArgumentParser
import Foundation
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
        let hunt = try gameOptions.loadedHunt()
        let data = try gameOptions.dataOptions.directory()
        let store = try gameOptions.dataOptions.ledger(mustExist: false)
        let staged: StagedSecret
        do { staged = try data.stageSecretRotation(forHunt: hunt.id) } catch { throw fail(error.description) }
        let fingerprint = SecretRotation.fingerprint(of: staged.secret)
        do {
            try await store.recordSecretRotation(hunt: hunt.id, fingerprint: fingerprint, by: gameMasterActor, at: Date())
        } catch {
            staged.discard()
            throw fail("\(error)")
        }
        do { try staged.install() } catch { throw fail(error.description) }
        if json { return try printJSON(Result(hunt: hunt.id, fingerprint: fingerprint)) }
        print("hunt \(hunt.id) has a new secret (fingerprint \(fingerprint)): codes printed before now fail as forged; print them again")
    }
}
