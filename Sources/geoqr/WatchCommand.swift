import ArgumentParser
import Foundation
import Play
import GeoQR
import QRImaging

struct WatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Read codes from a camera or a Y4M stream, each reported once per debounce window.",
        discussion: """
        --frames reads YUV4MPEG2 (a .y4m file, or - for standard input), so any camera or clip \
        can feed it through ffmpeg; --device reads a webcam through zbar's video API (V4L2). \
        Each distinct code is reported once per --debounce window, measured in the stream's \
        own time. With --hunt each report carries its verdict, judged at --at (a station's \
        fixed place; camera frames carry no GPS).

          frame 12 (0.40 s): GQ1.DEMO.A2.K3J5M2QX7P4RT6WA
          frame 12 (0.40 s): A2 Salt pan view: claimable (8 m, radius 40 m)

        Exit status: 0 when a code was reported (with --hunt: when one was claimable), 1 \
        otherwise or when the source fails, 2 on usage errors.

        Examples:
          ffmpeg -f v4l2 -i /dev/video0 -f yuv4mpegpipe -pix_fmt yuv420p - | geoqr watch --frames -
          geoqr watch --device /dev/video0 --hunt demo --at 40.62790,-8.65990
          geoqr watch --frames clip.y4m --debounce 500ms --json
        """
    )

    @Option(help: ArgumentHelp("A Y4M stream: a file, or - for standard input.", valueName: "FILE|-"))
    var frames: String?

    @Option(help: ArgumentHelp("A V4L2 camera, e.g. /dev/video0.", valueName: "DEVICE"))
    var device: String?

    @Option(help: ArgumentHelp("Report each code at most once in this long: 2s, 500ms, 1.5 (seconds).", valueName: "TIME"))
    var debounce = "2s"

    @Option(help: "Judge each code against this hunt (name or file).")
    var hunt: String?

    @OptionGroup var claimOptions: ClaimOptions

    @Flag(help: "Print one JSON object per report, one per line.")
    var json = false

    func validate() throws {
        guard (frames == nil) != (device == nil) else {
            throw ValidationError("give one source: --frames FILE|- for a Y4M stream, or --device /dev/video0 for a camera")
        }
        guard Self.seconds(debounce) != nil else {
            throw ValidationError("--debounce \(debounce): give a time like 2s, 500ms or 1.5")
        }
        if hunt == nil, claimOptions.at != nil {
            throw ValidationError("--at goes with --hunt: it is where the codes are judged from")
        }
    }

    func run() throws {
        let judge = try hunt.map { try claimOptions.huntAndSecret($0) }
        var source = try openSource()
        // A frame stops at the first pass that finds a code: the next frame comes a moment later.
        let decoder = PictureDecoder()
        var debouncer = CodeDebouncer(window: Self.seconds(debounce) ?? 2)
        var reported = 0
        do {
            while let frame = try source.nextFrame() {
                for text in decoder.decode(frame.image).map(\.text) where debouncer.shouldReport(text, at: frame.time) {
                    reported += try report(text, frame: frame, judge: judge) ? 1 : 0
                }
            }
        } catch {
            warn("\(sourceName): \(error)")
            throw ExitCode.failure
        }
        if reported == 0 { throw ExitCode.failure }
    }

    /// Prints one report; true when it counts towards success.
    private func report(_ text: String, frame: CameraFrame, judge: (Hunt, HuntSecret)?) throws -> Bool {
        let when = String(format: "frame %d (%.2f s)", frame.index, frame.time)
        guard let (h, secret) = judge else {
            if json { try printJSONLine(FrameCode(frame: frame.index, frameTime: frame.time, payload: text)) } else { print("\(when): \(text)") }
            return true
        }
        let claim = Claim(payloads: [text], location: claimOptions.location(source: .station), claimedAt: Date())
        let answer = ClaimAnswers.judging(claim, in: h, secret: secret).best
        ClaimAnswerOutput.print(answer, json: json, from: [("frame", .integer(frame.index)), ("frameTime", .number(frame.time))],
                                prefix: when, noLocation: "pass --at LAT,LON: frames carry no GPS")
        return answer.verdict == .claimable
    }

    private func openSource() throws -> any FrameSource {
        if let device {
            do { return try CameraDevice(path: device) } catch { throw CommandFailure(error.description) }
        }
        let path = frames ?? "-"
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CommandFailure("\(sourceName): cannot open: \(String(cString: strerror(errno)))") }
        // The descriptor stays open for the life of the process, which is the life of the stream.
        do { return try Y4MReader(fileDescriptor: fd) } catch { throw CommandFailure("\(sourceName): \(error)") }
    }

    /// The source as messages name it.
    private var sourceName: String {
        if let device { return device }
        return frames == "-" ? "standard input" : frames ?? ""
    }

    /// `2s`, `500ms`, `1.5` → seconds; nil for anything else or a negative time.
    static func seconds(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        let value: Double?
        if t.hasSuffix("ms") { value = Double(t.dropLast(2)).map { $0 / 1000 } }
        else if t.hasSuffix("s") { value = Double(t.dropLast()) }
        else { value = Double(t) }
        guard let value, value.isFinite, value >= 0 else { return nil }
        return value
    }
}

/// A code seen in a frame, without a hunt to judge it by (`watch --json`).
struct FrameCode: Encodable {
    let frame: Int
    let frameTime: Double
    let payload: String

}
