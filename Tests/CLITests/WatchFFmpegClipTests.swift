import Foundation
import QRImaging
import Testing

/// `geoqr watch --frames` on clips ffmpeg makes, as a camera would send them: codes turning,
/// drifting, resized and blurred, in Y4M (issue 3 §4). Needs ffmpeg (scripts/apt-packages-test.txt).
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "needs ffmpeg"))
struct WatchFFmpegClipTests {
    /// A 6 s, 10 frames/s, 320×240 Y4M clip: code A for 2.5 s, then B for 2.5 s, then 1 s of A
    /// again; each turning (rotate by time), drifting (crop window moving), box-blurred.
    func clip(_ geoqr: GeoQRProcess, a: String, b: String) throws {
        func segment(_ input: Int, seconds: Double) -> String {
            "[\(input)]scale=180:180,pad=360:300:(ow-iw)/2:(oh-ih)/2:color=0xB4B4B4,"
                + "rotate=a='0.12*t':fillcolor=0xB4B4B4,crop=320:240:x='20+8*t':y='30-6*t',"
                + "boxblur=1:1,trim=duration=\(seconds),setpts=PTS-STARTPTS,fps=10[s\(input)]"
        }
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.currentDirectoryURL = geoqr.workingDirectory
        ffmpeg.arguments = ["-v", "error", "-y",
                            "-loop", "1", "-framerate", "10", "-t", "2.5", "-i", a,
                            "-loop", "1", "-framerate", "10", "-t", "2.5", "-i", b,
                            "-loop", "1", "-framerate", "10", "-t", "1", "-i", a,
                            "-filter_complex", [segment(0, seconds: 2.5), segment(1, seconds: 2.5), segment(2, seconds: 1),
                                                "[s0][s1][s2]concat=n=3:v=1,format=yuv420p[v]"].joined(separator: ";"),
                            "-map", "[v]", "-f", "yuv4mpegpipe", "clip.y4m"]
        let err = Pipe()
        ffmpeg.standardError = err
        try ffmpeg.run()
        let message = err.fileHandleForReading.readDataToEndOfFile()
        ffmpeg.waitUntilExit()
        try #require(ffmpeg.terminationStatus == 0, "ffmpeg: \(String(decoding: message, as: UTF8.self))")
    }

    @Test func eachCodeOncePerDebounceWindowInAMovingBlurredClip() throws {
        let geoqr = try GeoQRProcess()
        let code = try QRSymbol(encoding: "HELLO FROM FFMPEG").image(moduleSize: 4, margin: 4)
        try PNGCodec.encode(code).write(to: URL(fileURLWithPath: geoqr.path("b.png")))
        #expect(try geoqr.run("code", "demo", "A2", "-o", "a.png", "--size", "4").status == 0)
        let a = try #require(SymbolReader().read(try PNGCodec.decode(try geoqr.data("a.png"))).first?.text)
        try clip(geoqr, a: "a.png", b: "b.png")

        // A window longer than the clip: each code once, in order of first sight.
        let long = try geoqr.run("watch", "--frames", "clip.y4m", "--debounce", "10s")
        #expect(long.status == 0, "\(long.stderr)")
        let texts = long.stdout.split(separator: "\n").map { $0.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? "" }
        #expect(texts == [a, "HELLO FROM FFMPEG"], "\(long.stdout)")

        // A 3 s window: A at the start, B at 2.5 s, A again at 5 s (more than 3 s after A's report).
        let short = try geoqr.run("watch", "--frames", "clip.y4m", "--debounce", "3s")
        let shortTexts = short.stdout.split(separator: "\n").map { $0.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? "" }
        #expect(shortTexts == [a, "HELLO FROM FFMPEG", a], "\(short.stdout)")

        // Without debouncing most of the 60 frames are read, though every one is turned and blurred.
        let every = try geoqr.run("watch", "--frames", "clip.y4m", "--debounce", "0")
        #expect(every.stdout.split(separator: "\n").count >= 40, "\(every.stdout.split(separator: "\n").count) of 60 frames read")
    }
}
