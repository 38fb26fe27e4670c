import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import Ledger
import Play
import QRImaging

/// `geoqr claim`: scan photos and record what they prove in the ledger.
struct ClaimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "claim",
        abstract: "Claim finds from photos of cache codes, and reveal their messages.",
        discussion: """
        Each photo is judged as geoqr scan judges it (genuine code, near its cache, inside the \
        hunt's time window), then recorded in the ledger for the player. A claimable code \
        becomes a find: it earns points, grants the cache's card and prints the message the \
        card reveals. Claiming the same cache again answers with the original find. Every \
        other verdict (too-far, forged…) is kept as an attempt for the game master.

        The PIN comes from --pin or the first line of standard input; a wrong one ends the \
        command before any photo is read.

        Exit status: 0 when at least one code is a find (new or earlier), 1 otherwise.

        Examples:
          geoqr claim IMG_0042.jpg --hunt demo --player Ada --pin 4321
          geoqr claim a2.png --hunt demo --player Ada --at 40.62800,-8.65990 --json
        """
    )

    @Argument(help: ArgumentHelp("Photos of cache codes.", valueName: "PHOTO"))
    var photos: [String] = []

    @Option(help: "Hunt name (demo for caches/demo.json) or hunt file.")
    var hunt: String

    @OptionGroup var playerOptions: PlayerOptions

    @OptionGroup var claimOptions: ClaimOptions
    @OptionGroup var storeOptions: StoreOptions

    @Flag(help: "Print one JSON object per code, one per line.")
    var json = false

    func validate() throws {
        guard !photos.isEmpty else { throw ValidationError("name at least one photo to claim with") }
    }

    func run() async throws {
        let (hunt, secret) = try claimOptions.huntAndSecret(hunt)
        let game = Game(hunt: hunt, secret: secret, store: try await storeOptions.ledger(data: claimOptions.dataOptions, mustExist: true))
        let player = try await playerOptions.signIn(game)
        var finds = 0
        for input in PictureInput.expand(photos) {
            let answers: ClaimAnswers
            do {
                let bytes = try input.read(limit: ScanCommand.maxFileBytes)
                answers = try await game.claimPhoto(bytes, by: player.id, fallback: claimOptions.location(source: .at)).value
            } catch let error as PictureFileError {
                warn("\(input.path): \(error)")
                continue
            } catch let error as PictureError {
                warn("\(input.path): \(error)")
                continue
            } catch {
                throw CommandFailure("\(error)")
            }
            for answer in answers.all {
                if answer.isFind { finds += 1 }
                ClaimAnswerOutput.print(answer, json: json, from: [("file", .string(input.path))], prefix: input.path)
            }
        }
        if finds == 0 { throw ExitCode.failure }
    }
}
