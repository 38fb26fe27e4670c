import Foundation
import GeoQR
import QRImaging
import Testing

@Suite struct WatchCommandTests {
    static let width = 200, height = 160

    /// A Y4M clip at 10 frames a second: blank frames, a code drifting across (some frames
    /// blurred), the same code again within the 2 s window, a gap, the code once more, then
    /// another, non-GeoQR code.
    func clip(payload: String) throws -> (data: Data, frames: Int) {
        let code = try QRSymbol(encoding: payload).image(moduleSize: 3, margin: 4)
        let foreign = try QRSymbol(encoding: "HELLO").image(moduleSize: 3, margin: 4)
        let blank = GrayImage(width: Self.width, height: Self.height, fill: 190)
        var frames = [GrayImage](repeating: blank, count: 3)                                     // 0-2
        frames += (0..<10).map { i in place(code, x: 10 + 3 * i, y: 8 + i, blurred: (4...6).contains(i)) }  // 3-12: first report at 0.3 s
        frames += [GrayImage](repeating: blank, count: 3)                                       // 13-15
        frames += (0..<5).map { _ in place(code, x: 60, y: 20) }                                 // 16-20: still in the window
        frames += [GrayImage](repeating: blank, count: 25)                                      // 21-45
        frames += (0..<3).map { _ in place(code, x: 30, y: 30) }                                 // 46-48: second report at 4.6 s
        frames += (0..<3).map { _ in place(foreign, x: 50, y: 40) }                              // 49-51
        var out = Data("YUV4MPEG2 W\(Self.width) H\(Self.height) F10:1 Ip A1:1 C420jpeg\n".utf8)
        for f in frames { out += Data("FRAME\n".utf8) + Data(f.pixels) + Data(repeating: 128, count: Self.width * Self.height / 2) }
        return (out, frames.count)
    }

    func place(_ code: GrayImage, x: Int, y: Int, blurred: Bool = false) -> GrayImage {
        var frame = GrayImage(width: Self.width, height: Self.height, fill: 190)
        for r in 0..<code.height { for c in 0..<code.width { frame[x + c, y + r] = code[c, r] == 0 ? 30 : 230 } }
        guard blurred else { return frame }
        var soft = frame
        for r in 1..<(Self.height - 1) {
            for c in 1..<(Self.width - 1) {
                var sum = 0
                for dy in -1...1 { for dx in -1...1 { sum += Int(frame[c + dx, r + dy]) } }
                soft[c, r] = UInt8(sum / 9)
            }
        }
        return soft
    }

    /// A working directory with the demo hunt's secret and A2's payload.
    func setUp() throws -> (GeoQRProcess, String) {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("code", "demo", "A2", "-o", "a2.png", "--size", "4").status == 0)
        let image = try PNGCodec.decode(try geoqr.data("a2.png"))
        return (geoqr, try #require(SymbolReader().read(image).first?.text))
    }

    @Test func eachCodeOncePerDebounceWindow() throws {
        let (geoqr, payload) = try setUp()
        try clip(payload: payload).data.write(to: URL(fileURLWithPath: geoqr.path("clip.y4m")))
        let r = try geoqr.run("watch", "--frames", "clip.y4m")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == """
        frame 3 (0.30 s): \(payload)
        frame 46 (4.60 s): \(payload)
        frame 49 (4.90 s): HELLO

        """)
        let long = try geoqr.run("watch", "--frames", "clip.y4m", "--debounce", "10s")
        #expect(long.stdout.split(separator: "\n").count == 2)
        let every = try geoqr.run("watch", "--frames", "clip.y4m", "--debounce", "0")
        #expect(every.stdout.split(separator: "\n").count >= 15, "most frames with a code are read, blurred ones too")
    }

    @Test func standardInputIsAStream() throws {
        let (geoqr, payload) = try setUp()
        let r = try geoqr.run(arguments: ["watch", "--frames", "-", "--debounce", "500ms"], input: try clip(payload: payload).data)
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.first == "frame 3 (0.30 s): \(payload)")
        #expect(lines.contains("frame 16 (1.60 s): \(payload)"), "a 0.5 s window lets the return be reported")
    }

    @Test func withAHuntEachReportCarriesItsVerdict() throws {
        let (geoqr, payload) = try setUp()
        try clip(payload: payload).data.write(to: URL(fileURLWithPath: geoqr.path("clip.y4m")))
        let r = try geoqr.run("watch", "--frames", "clip.y4m", "--hunt", "demo", "--at", "40.62800,-8.65990", "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let reports = try GeoQRProcess.jsonLines(r)
        #expect(reports.map { $0["verdict"] as? String } == ["claimable", "claimable", "no-code"])
        #expect(reports.map { $0["frame"] as? Int } == [3, 46, 49])
        #expect(reports[0]["locationSource"] as? String == "station" && reports[0]["cache"] as? String == "A2")
        let text = try geoqr.run("watch", "--frames", "clip.y4m", "--hunt", "demo", "--at", "40.62800,-8.65990")
        #expect(text.stdout.hasPrefix("frame 3 (0.30 s): A2 Salt pan view: claimable (11 m, radius 40 m)\n"))
        let far = try geoqr.run("watch", "--frames", "clip.y4m", "--hunt", "demo", "--at", "41,-8")
        #expect(far.status == 1, "nothing claimable")
    }

    @Test func aMissingCameraIsOneLine() throws {
        for device in ["/dev/video-geoqr-missing", "/dev/null"] {
            let r = try GeoQRProcess().run("watch", "--device", device)
            #expect(r.status == 1)
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
            #expect(r.stderr.hasPrefix("geoqr: \(device): cannot open camera: "))
        }
    }

    @Test func badStreamsAreOneLine() throws {
        let geoqr = try GeoQRProcess()
        try geoqr.write("hello", to: "notes.y4m")
        try geoqr.write("YUV4MPEG2 W100000 H100000 C420jpeg\nFRAME\n", to: "bomb.y4m")
        for (file, message) in [("notes.y4m", "not a Y4M stream"), ("bomb.y4m", "each side must be 1…16384"),
                                ("nope.y4m", "cannot open: No such file")] {
            let r = try geoqr.run("watch", "--frames", file)
            #expect(r.status == 1)
            #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(message), "\(r.stderr)")
        }
        var truncated = Data("YUV4MPEG2 W8 H8 Cmono\nFRAME\n".utf8) + Data(repeating: 255, count: 64)
        truncated += Data("FRAME\n".utf8) + Data(count: 3)
        let r = try geoqr.run(arguments: ["watch", "--frames", "-"], input: truncated)
        #expect(r.status == 1 && r.stderr == "geoqr: standard input: frame 1: the stream ends inside the frame\n")
    }

    @Test("usage mistakes exit 2", arguments: [
        ["watch"],
        ["watch", "--frames", "a.y4m", "--device", "/dev/video0"],
        ["watch", "--frames", "a.y4m", "--debounce", "soon"],
        ["watch", "--frames", "a.y4m", "--debounce", "-1s"],
        ["watch", "--frames", "a.y4m", "--at", "40,-8"],
        ["watch", "--frames", "a.y4m", "--hunt", "demo", "--at", "north"],
    ])
    func usageMistakes(_ arguments: [String]) throws {
        let r = try GeoQRProcess().run(arguments: arguments)
        #expect(r.status == 2, "\(arguments): \(r.stderr)")
    }
}
