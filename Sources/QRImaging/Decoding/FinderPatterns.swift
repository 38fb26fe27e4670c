/// Counts places in a two-tone image that look like a QR code's finder pattern (the three
/// nested squares in its corners): runs of dark and light in the proportions 1:1:3:1:1 along a
/// row, the same again down the column through their middle. It is the test zbar starts every
/// QR decode with, made a little more forgiving, so a picture with fewer than two such places
/// is one zbar could not read a code in; finding that out costs a pass over the rows, where a
/// zbar pass costs several times more.
///
/// Both polarities are counted: dark-centred patterns are a dark-on-light code's, light-centred
/// ones a light-on-dark code's (which zbar reads only once the picture is inverted).
///
/// ```swift
/// let two = binary.finderPatterns(enough: 2)
/// if two.dark >= 2 { /* worth a zbar pass on `binary` */ }
/// ```
struct FinderPatternCount: Equatable {
    var dark = 0, light = 0
}

extension GrayImage {
    /// Distinct finder-like places of each polarity in this image (a pixel is dark below 128),
    /// counting each polarity only up to `enough`: the scan ends once both have that many.
    ///
    /// As zbar does, a place counts only where the pattern crosses three or more nearby rows
    /// (a fifth of its middle run's height at least: single rows of the proportions are common
    /// in noise and texture), and it must show the proportions down the column too.
    func finderPatterns(enough: Int = 3) -> FinderPatternCount {
        var count = FinderPatternCount()
        let w = width, h = height
        guard w >= 7, h >= 7 else { return count }
        var centres: [(x: Int, y: Int, size: Int, dark: Bool)] = []
        var open: [FinderStack] = []
        pixels.withUnsafeBufferPointer { px in
            func settle(_ stack: FinderStack) -> Bool {
                guard stack.lines >= 3, stack.lines * 5 >= stack.middle / stack.lines else { return false }
                let cx = stack.centreSum / stack.lines, cy = (stack.firstY + stack.lastY) / 2
                let size = stack.across / stack.lines
                guard !centres.contains(where: { $0.dark == stack.dark && abs($0.x - cx) <= $0.size / 2 && abs($0.y - cy) <= $0.size / 2 }),
                      Self.confirmDown(px, width: w, height: h, x: cx, y: cy, dark: stack.dark, across: size) != nil
                else { return false }
                centres.append((cx, cy, size, stack.dark))
                if stack.dark { count.dark += 1 } else { count.light += 1 }
                return count.dark >= enough && count.light >= enough
            }
            for y in 0..<h {
                // Stacks no row can join any more are judged and let go.
                var i = 0
                while i < open.count {
                    guard y - open[i].lastY > open[i].gap else { i += 1; continue }
                    open.swapAt(i, open.count - 1)
                    if settle(open.removeLast()) { return }
                }
                let row = y * w
                // The last five runs of the row (r4 the newest), and where the middle one started.
                var r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0
                var s2 = 0, s3 = 0, s4 = 0
                var filled = 0, runStart = 0, x = 1
                var dark = px[row] < 128
                while true {
                    while x < w, (px[row + x] < 128) == dark { x += 1 }
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
                    guard x < w else { break }
                    runStart = x
                    dark.toggle()
                    x += 1
                }
            }
            for stack in open where settle(stack) { return }
        }
        count.dark = min(count.dark, enough)
        count.light = min(count.light, enough)
        return count
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

    /// Walks the column through (x, y) up and down from the run holding it; the vertical
    /// centre when the column shows the same pattern at about the same size, else nil.
    private static func confirmDown(_ px: UnsafeBufferPointer<UInt8>, width w: Int, height h: Int,
                                    x: Int, y: Int, dark: Bool, across: Int) -> Int? {
        let limit = across * 2
        @inline(__always) func isDark(_ y: Int) -> Bool { px[y * w + x] < 128 }
        // Up: the centre run's top, then two more runs (light/dark alternating).
        var lengths = [Int](repeating: 0, count: 5)
        var top = y
        while top > 0, isDark(top - 1) == dark, y - top < limit { top -= 1 }
        var bottom = y
        while bottom < h - 1, isDark(bottom + 1) == dark, bottom - y < limit { bottom += 1 }
        lengths[2] = bottom - top + 1
        var edge = top
        for (slot, tone) in [(1, !dark), (0, dark)] {
            var n = 0
            while edge > 0, isDark(edge - 1) == tone, n < limit { edge -= 1; n += 1 }
            guard n > 0 else { return nil }
            lengths[slot] = n
        }
        edge = bottom
        for (slot, tone) in [(3, !dark), (4, dark)] {
            var n = 0
            while edge < h - 1, isDark(edge + 1) == tone, n < limit { edge += 1; n += 1 }
            guard n > 0 else { return nil }
            lengths[slot] = n
        }
        let total = lengths.reduce(0, +)
        // About as tall as wide: a turned or tilted code's pattern is within a factor of two.
        guard total * 2 >= across, total <= across * 2,
              looksLikeFinder(lengths[0], lengths[1], lengths[2], lengths[3], lengths[4]) else { return nil }
        return top + lengths[2] / 2
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
