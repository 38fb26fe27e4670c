import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import PhotoMetadata

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
        let finder = CodeFinder()
        var claimable = 0
        for (path, problem) in ScanFiles.expand(files) {
            do {
                if let problem { throw CodeFinderError(problem) }
                let data = try readPicture(path)
                let judgements = h.judge(try claim(from: data, finder: finder), secret: secret)
                claimable += judgements.filter { $0.verdict == .claimable }.count
                for j in judgements { try report(j, file: path) }
            } catch {
                if json { try printJSONLine(UnreadableReport(file: path, error: "\(error)")) }
                warn("\(path): \(error)")
            }
        }
        if claimable == 0 { throw ExitCode.failure }
    }

    /// The codes, and where and when the photo says it was taken.
    private func claim(from data: Data, finder: CodeFinder) throws -> Claim {
        let (payloads, meta) = try finder.photo(inFile: data)
        let fromPhoto = meta?.coordinate.map {
            ClaimLocation(coordinate: $0, accuracy: meta?.accuracy, source: .exif, time: meta?.gpsTime)
        }
        return Claim(payloads: payloads, location: fromPhoto ?? claimOptions.location(source: .at),
                     takenAt: meta?.takenAt(assuming: .current), claimedAt: Date())
    }

    private func report(_ j: ClaimJudgement, file: String) throws {
        if json { return try printJSONLine(ClaimReport(judgement: j, file: file)) }
        if j.verdict == .noLocation {
            print("\(file): \(j.cacheLabel): no-location (the photo has no GPS position; pass --at LAT,LON)")
        } else {
            print("\(file): \(j.line)")
        }
    }

    private func readPicture(_ path: String) throws -> Data {
        do { return try FileAccess.read(path, limit: Self.maxFileBytes) } catch { throw CodeFinderError(error.description) }
    }
}
