import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import Play

struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Judge claims from photos: is each code genuine, and was it scanned near its cache?",
        discussion: """
        For each picture: decode its codes, check each code's signature with the hunt's secret, \
        find where the photo was taken (its EXIF GPS position, else --at), and measure the \
        WGS84 distance and bearing to the cache. One line per code:

          a2.jpg: A2 Salt pan view: claimable (12 m, radius 40 m)
          b1.jpg: too-far: walk 240 m north-east (bearing 47°) to B1 Library steps, radius 40 m

        Verdicts: claimable, too-far, forged, unknown-hunt, unknown-cache, no-code, \
        no-location, outside-time-window. The hunt's time window is checked against the \
        photo's GPS time, else its DateTimeOriginal (in its recorded offset, else this \
        machine's time zone), else now. Folders are walked for pictures.

        Exit status: 0 when at least one code is claimable, 1 otherwise, 2 on usage errors.

        Examples:
          geoqr scan photos/ --hunt demo
          geoqr scan a2.png --hunt demo --at "N 40° 37.674' W 008° 39.594'" --accuracy 15
          geoqr scan photos/ --hunt demo --json | jq 'select(.verdict == "claimable")'
        """
    )

    @Argument(help: ArgumentHelp("Pictures, or folders to look in.", valueName: "FILE|FOLDER"))
    var files: [String] = []

    @Option(help: "Hunt name or hunt file the codes should belong to.")
    var hunt: String

    @OptionGroup var claimOptions: ClaimOptions

    @Flag(help: "Print one JSON object per code, one per line.")
    var json = false

    /// Pictures larger than this are refused before they are read.
    static let maxFileBytes = 64 << 20

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name at least one picture or folder to scan") }
    }

    func run() throws {
        let (h, secret) = try claimOptions.huntAndSecret(hunt)
        var claimable = 0
        for input in PictureInput.expand(files) {
            do {
                let photo = try PhotoEvidence(bytes: try input.read(limit: Self.maxFileBytes))
                let answers = ClaimAnswers.judging(photo.claim(fallback: claimOptions.location(source: .at), now: Date()),
                                                   in: h, secret: secret)
                claimable += answers.all.filter { $0.verdict == .claimable }.count
                for answer in answers.all {
                    ClaimAnswerOutput.print(answer, json: json, from: [("file", .string(input.path))], prefix: input.path,
                                            noLocation: "the photo has no GPS position; pass --at LAT,LON")
                }
            } catch {
                if json { try printJSONLine(UnreadableReport(file: input.path, error: "\(error)")) }
                warn("\(input.path): \(error)")
            }
        }
        if claimable == 0 { throw ExitCode.failure }
    }
}

/// A picture that could not be read, as `scan --json` prints it.
struct UnreadableReport: Encodable {
    let file: String
    let error: String
}
