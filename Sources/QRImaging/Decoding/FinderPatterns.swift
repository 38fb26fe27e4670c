/// Finds places in a two-tone image that look like a QR code's finder pattern (the three
/// nested squares in its corners): runs of dark and light in the proportions 1:1:3:1:1 along a
/// row, stacked over nearby rows as zbar stacks them, then crossed again through their centre
/// down the column, along the row and along both diagonals. It is the test zbar starts every QR
/// decode with, made a little more forgiving in its proportions and stricter in its shape: a
/// real finder pattern is a square, so every line through its centre shows the proportions, at
/// about the same length down as across, and the same along either diagonal. Texture (gravel,
/// foliage, sensor noise) makes many places that pass along one or two lines, few that pass
/// along four. Finding them costs a pass over the rows, where a zbar pass costs several times
/// more.
///
/// Both polarities are found: dark-centred patterns are a dark-on-light code's, light-centred
/// ones a light-on-dark code's (which zbar reads only once the picture is inverted).
///
/// ```swift
/// let counted = binary.finderPatterns(enough: 3)
/// if counted.dark >= 3 { /* three dark-centred ones, not yet known to be placed as a code's */ }
/// ```
struct FinderPatternCount: Equatable {
    var dark = 0, light = 0
}

/// One place shaped like a finder pattern: its centre, its width (seven modules, in pixels,
/// the mean of its widths across and down), and the tone of its centre.
struct FinderPattern: Equatable {
    var x: Int, y: Int
    var size: Int
    var dark: Bool
}

extension GrayImage {
    /// Distinct finder-like places of each polarity in this image (a pixel is dark below 128),
    /// counting each polarity only up to `enough`: the scan ends once both have that many.
    func finderPatterns(enough: Int = 3) -> FinderPatternCount {
        var count = FinderPatternCount()
        eachFinderPattern { pattern in
            if pattern.dark { count.dark += 1 } else { count.light += 1 }
            return count.dark >= enough && count.light >= enough
        }
        count.dark = min(count.dark, enough)
        count.light = min(count.light, enough)
        return count
    }

    /// Calls `found` with each distinct finder-like place, roughly top to bottom, until it
    /// returns true.
    ///
    /// As zbar does, a place counts only where the pattern crosses three or more nearby rows
    /// (a fifth of its middle run's height at least: single rows of the proportions are common
    /// in noise and texture); then it must show the proportions down the column, along the row
    /// and along both diagonals through its centre (``confirm``).
    func eachFinderPattern(_ found: (FinderPattern) -> Bool) {
        let w = width, h = height
        guard w >= 7, h >= 7 else { return }
        var seen: [FinderPattern] = []
        var open: [FinderStack] = []
        pixels.withUnsafeBufferPointer { px in
            func settle(_ stack: FinderStack) -> Bool {
                guard stack.lines >= 3, stack.lines * 5 >= stack.middle / stack.lines else { return false }
                let cx = stack.centreSum / stack.lines, cy = (stack.firstY + stack.lastY) / 2
                let size = stack.across / stack.lines
                guard !seen.contains(where: { $0.dark == stack.dark && abs($0.x - cx) <= $0.size / 2 && abs($0.y - cy) <= $0.size / 2 }),
                      let pattern = Self.confirm(px, width: w, height: h, x: cx, y: cy, dark: stack.dark, across: size)
                else { return false }
                seen.append(pattern)
                return found(pattern)
            }
            for y in 0..<h {
                // Stacks no row can join any more are judged and let go.
                var i = 0
                while i < open.count {
                    guard y - open[i].lastY > open[i].gap else { i += 1; continue }
                    open.swapAt(i, open.count - 1)
                    if settle(open.removeLast()) { return }
                }
                // The last five runs of the row (r4 the newest), and where the middle one started.
                var r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0
                var s2 = 0, s3 = 0, s4 = 0
                var filled = 0, runStart = 0
                var dark = px[y * w] < 128
                Self.eachRunEnd(in: px.baseAddress! + y * w, count: w) { x in
                    // A run of `dark` ended at x; the five ending here centre on a run of the same tone.
                    (r0, r1, r2, r3, r4) = (r1, r2, r3, r4, x - runStart)
                    (s2, s3, s4) = (s3, s4, runStart)
                    filled += 1
                    if filled >= 5, Self.looksLikeFinder(r0, r1, r2, r3, r4) {
                        let line = (start: s2, end: s2 + r2, across: r0 + r1 + r2 + r3 + r4)
                        if let i = open.firstIndex(where: { $0.takes(line, y: y, dark: dark) }) {
                            open[i].add(line, y: y)
                        } else {
                            open.append(FinderStack(line, y: y, dark: dark))
                        }
                    }
                    runStart = x
                    dark.toggle()
                }
            }
            for stack in open where settle(stack) { return }
        }
    }

    /// Calls `body` with the end of each run of one tone (dark below 128) along a row of `count`
    /// pixels: every x where the tone differs from the pixel before, then `count`, the last
    /// run's end. The row is read eight pixels at a time: a pixel's tone is its top bit, so
    /// one exclusive or of the eight and the eight one pixel back marks where tones change, and
    /// the loop goes from mark to mark. On texture a pixel-by-pixel loop guessed wrong at
    /// every run's end, and runs are a few pixels long.
    @inline(__always)
    static func eachRunEnd(in row: UnsafePointer<UInt8>, count: Int, _ body: (Int) -> Void) {
        let raw = UnsafeRawPointer(row), tops: UInt64 = 0x8080_8080_8080_8080
        var x = 1
        // Bytes x…x+7 beside bytes x−1…x+6, while both lie within the row.
        while x &+ 8 <= count {
            var changes = (raw.loadUnaligned(fromByteOffset: x, as: UInt64.self)
                           ^ raw.loadUnaligned(fromByteOffset: x &- 1, as: UInt64.self)) & tops
            changes = UInt64(littleEndian: changes)
            while changes != 0 {
                body(x &+ changes.trailingZeroBitCount >> 3)
                changes &= changes &- 1
            }
            x &+= 8
        }
        while x < count {
            if (row[x] ^ row[x &- 1]) & 0x80 != 0 { body(x) }
            x &+= 1
        }
        if count > 0 { body(count) }
    }

    /// zbar's test on five run lengths, with half a module more slack: in units of a seventh of
    /// their sum, neighbouring pairs measure 2, 4, 4, 2 (zbar allows ±½ a unit; this ±1).
    @inline(__always)
    static func looksLikeFinder(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ e: Int) -> Bool {
        let total = a + b + c + d + e
        guard total >= 7 else { return false }
        // A pair p in units: 7p / total; near n means |7p - n·total| ≤ total (one unit).
        @inline(__always) func near(_ p: Int, _ n: Int) -> Bool { abs(7 * p - n * total) <= total }
        return near(a + b, 2) && near(b + c, 4) && near(c + d, 4) && near(d + e, 2)
    }

    /// The finder pattern centred near (x, y), whose rows measure `across`, when the lines
    /// through its centre show it too: down the column (which also finds the centre's row),
    /// along the row again at that centre, and along both diagonals. A square's row and column
    /// through its centre cross it at the same length whatever its turn, and so do its two
    /// diagonals; a diagonal, counted in steps of one pixel each way, is 0.7–1 times as long as
    /// the row (45° and 0° turns). Each is allowed a third or so more slack (tilt, blur); nil
    /// when one fails.
    static func confirm(_ px: UnsafeBufferPointer<UInt8>, width w: Int, height h: Int,
                        x: Int, y: Int, dark: Bool, across: Int) -> FinderPattern? {
        let limit = across * 2
        guard let down = crossing(px, width: w, height: h, x: x, y: y, step: (0, 1), dark: dark, limit: limit),
              similar(down.length, across) else { return nil }
        let cy = y + down.centre
        guard let row = crossing(px, width: w, height: h, x: x, y: cy, step: (1, 0), dark: dark, limit: limit) else { return nil }
        let cx = x + row.centre
        let size = (across + down.length) / 2
        guard let d1 = crossing(px, width: w, height: h, x: cx, y: cy, step: (1, 1), dark: dark, limit: limit),
              let d2 = crossing(px, width: w, height: h, x: cx, y: cy, step: (-1, 1), dark: dark, limit: limit),
              similar(d1.length, d2.length)
        else { return nil }
        let diagonal = (d1.length + d2.length) / 2
        guard 2 * diagonal >= size, 5 * diagonal <= 6 * size else { return nil }
        return FinderPattern(x: cx, y: cy, size: size, dark: dark)
    }

    /// Within about a third of each other (a tilted code's square seen as a 3:2 oblong still is).
    @inline(__always)
    static func similar(_ a: Int, _ b: Int) -> Bool {
        20 * abs(a - b) <= 7 * max(a, b)
    }

    /// The five runs along `step` through (x, y), which must be of tone `dark` (the middle run's),
    /// each at most `limit` long: their total length in steps and the offset of the middle
    /// run's centre from (x, y) in steps, when they are in the finder proportions; else nil.
    private static func crossing(_ px: UnsafeBufferPointer<UInt8>, width w: Int, height h: Int, x: Int, y: Int,
                                 step: (x: Int, y: Int), dark: Bool, limit: Int) -> (length: Int, centre: Int)? {
        @inline(__always) func isDark(_ k: Int) -> Bool? {
            let px0 = x + k * step.x, py0 = y + k * step.y
            guard px0 >= 0, py0 >= 0, px0 < w, py0 < h else { return nil }
            return px[py0 * w + px0] < 128
        }
        guard isDark(0) == dark else { return nil }
        var low = 0, high = 0
        while -low < limit, isDark(low - 1) == dark { low -= 1 }
        while high < limit, isDark(high + 1) == dark { high += 1 }
        @inline(__always) func run(from edge: inout Int, by k: Int, dark tone: Bool) -> Int {
            var n = 0
            while n < limit, isDark(edge + k) == tone { edge += k; n += 1 }
            return n
        }
        var edge = low
        let b = run(from: &edge, by: -1, dark: !dark), a = run(from: &edge, by: -1, dark: dark)
        edge = high
        let d = run(from: &edge, by: 1, dark: !dark), e = run(from: &edge, by: 1, dark: dark)
        let c = high - low + 1
        guard a > 0, b > 0, d > 0, e > 0, looksLikeFinder(a, b, c, d, e) else { return nil }
        return (a + b + c + d + e, (low + high) / 2)
    }
}

/// Finder-like runs in nearby rows that line up: zbar's cluster of finder lines.
private struct FinderStack {
    let dark: Bool
    var start: Int, end: Int, lastY: Int
    let firstY: Int
    var lines = 1, centreSum: Int, middle: Int, across: Int

    init(_ line: (start: Int, end: Int, across: Int), y: Int, dark: Bool) {
        self.dark = dark
        start = line.start; end = line.end; lastY = y; firstY = y
        centreSum = (line.start + line.end) / 2; middle = line.end - line.start; across = line.across
    }

    /// How far apart rows and ends of the middle run may be (zbar: a quarter of the line's length).
    var gap: Int { max(2, (end - start + 3) / 4 + 1) }

    func takes(_ line: (start: Int, end: Int, across: Int), y: Int, dark: Bool) -> Bool {
        dark == self.dark && y > lastY && y - lastY <= gap && abs(line.start - start) <= gap && abs(line.end - end) <= gap
    }

    mutating func add(_ line: (start: Int, end: Int, across: Int), y: Int) {
        start = line.start; end = line.end; lastY = y
        lines += 1; centreSum += (line.start + line.end) / 2; middle += line.end - line.start; across += line.across
    }
}
