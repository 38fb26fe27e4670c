import Foundation

/// Whether an image holds three finder patterns of one polarity placed as a QR code's corners:
/// what a decode pass needs before zbar can read a code in it. Texture (gravel, foliage, sensor
/// noise) holds many finder-like places, but seldom three of one size at the corners of a
/// right-angled, roughly isosceles triangle at least a small code apart, and never with a code's
/// timing patterns (a line of alternating modules) running between them.
///
/// ```swift
/// let corners = binary.codeCorners()
/// if corners.dark { /* worth a zbar pass on `binary` */ }
/// ```
struct CodeCorners: Equatable {
    /// Three dark-centred patterns so placed (a dark-on-light code's).
    var dark = false
    /// Three light-centred patterns so placed (a light-on-dark code's), without the timing
    /// test: local binarisation breaks up a light-on-dark code's dark timing modules, and with
    /// it FrameDecoderTests' light-on-dark clip was read a frame late.
    var light = false
    /// The finder-like places seen of the polarity with more of them: all of them when
    /// neither polarity has its corners (the search then ran to the end).
    var places = 0

    /// Past this many finder-like places of one polarity the search stops looking for corners
    /// and answers yes: a picture so crowded is not one to skip passes on, and the search is
    /// cubic in their number.
    static let crowd = 48

    /// Whether three patterns could be a code's corners by their sizes and places alone.
    static func fit(_ a: FinderPattern, _ b: FinderPattern, _ c: FinderPattern) -> Bool {
        corner(a, b, c) != nil
    }

    /// The three in the order (corner, one end, the other end) when they could be a code's
    /// corners: widths within a factor of two (a tilted code's far corner looks smaller), and at
    /// one of them a corner of 60°–120° whose two sides are within 1:1.75 of each other and each
    /// at least 8 modules long (a version 1 code's corners are 14 modules apart; a 45° turn
    /// makes its patterns √2 times as wide along a row).
    static func corner(_ a: FinderPattern, _ b: FinderPattern, _ c: FinderPattern) -> (FinderPattern, FinderPattern, FinderPattern)? {
        let smallest = min(a.size, b.size, c.size), largest = max(a.size, b.size, c.size)
        guard a.dark == b.dark, b.dark == c.dark, largest <= 2 * smallest else { return nil }
        let module = Double(a.size + b.size + c.size) / 21
        for (corner, p, q) in [(a, b, c), (b, c, a), (c, a, b)] {
            let u = (x: Double(p.x - corner.x), y: Double(p.y - corner.y))
            let v = (x: Double(q.x - corner.x), y: Double(q.y - corner.y))
            let lu = (u.x * u.x + u.y * u.y).squareRoot(), lv = (v.x * v.x + v.y * v.y).squareRoot()
            let short = min(lu, lv), long = max(lu, lv)
            guard short >= 8 * module, long <= 1.75 * short else { continue }
            if abs(u.x * v.x + u.y * v.y) <= 0.5 * lu * lv { return (corner, p, q) }
        }
        return nil
    }

    /// Whether a timing pattern runs from the pattern at `corner` to the one at `end`: on the
    /// line three modules toward `side` (a code's row or column 6), between the two patterns'
    /// outer edges, modules alternate, so the line crosses about one run a module and none
    /// longer than a few modules. Tried at 2½, 3 and 3½ modules off the centres, because a
    /// module's size is only estimated (from the patterns' widths and the line's angle).
    static func timing(_ px: UnsafeBufferPointer<UInt8>, width w: Int, height h: Int,
                       from corner: FinderPattern, to end: FinderPattern, toward side: FinderPattern) -> Bool {
        var u = (x: Double(end.x - corner.x), y: Double(end.y - corner.y))
        let length = (u.x * u.x + u.y * u.y).squareRoot()
        u = (u.x / length, u.y / length)
        var v = (x: Double(side.x - corner.x), y: Double(side.y - corner.y))
        let across = (v.x * v.x + v.y * v.y).squareRoot()
        v = (v.x / across, v.y / across)
        // A pattern's width along a row is 7 modules / cos(turn), the turn folded into 0°–45°.
        var turn = atan2(abs(u.y), abs(u.x))
        turn = min(turn, .pi / 2 - turn)
        let module = Double(corner.size + end.size) / 2 * cos(turn) / 7
        guard module > 0, length > 10 * module else { return false }
        let expected = (length - 10 * module) / module
        for offset in [3.0, 2.5, 3.5] {
            var runs = 0, longest = 0, run = 0
            var last: Bool?
            var t = 5 * module
            var inside = true
            while t <= length - 5 * module {
                let x = Int((Double(corner.x) + v.x * offset * module + u.x * t).rounded())
                let y = Int((Double(corner.y) + v.y * offset * module + u.y * t).rounded())
                guard x >= 0, y >= 0, x < w, y < h else { inside = false; break }
                let dark = px[y * w + x] < 128
                if dark == last { run += 1 } else { runs += 1; run = 1; last = dark }
                longest = max(longest, run)
                t += 0.5   // half a pixel a step: `run` counts half pixels
            }
            guard inside else { return false }
            let runsFit = Double(runs) >= 0.6 * expected && Double(runs) <= 1.6 * expected + 2
            if runsFit, Double(longest) * 0.5 <= 2.5 * module { return true }
        }
        return false
    }
}

extension GrayImage {
    /// Looks for code corners of each polarity among this image's finder-like places
    /// (``GrayImage/eachFinderPattern(_:)``), dark ones with timing patterns between them,
    /// stopping once both polarities have theirs.
    func codeCorners() -> CodeCorners {
        var corners = CodeCorners()
        var dark: [FinderPattern] = [], light: [FinderPattern] = []
        let w = width, h = height
        pixels.withUnsafeBufferPointer { px in
            func isCode(_ a: FinderPattern, _ b: FinderPattern, _ c: FinderPattern) -> Bool {
                guard let triangle = CodeCorners.corner(a, b, c) else { return false }
                let (corner, p, q) = triangle
                return CodeCorners.timing(px, width: w, height: h, from: corner, to: p, toward: q)
                    && CodeCorners.timing(px, width: w, height: h, from: corner, to: q, toward: p)
            }
            func adding(_ pattern: FinderPattern, to found: inout [FinderPattern]) -> Bool {
                guard found.count < CodeCorners.crowd else { return true }
                defer { found.append(pattern) }
                for j in found.indices {
                    for i in 0..<j where isCode(found[i], found[j], pattern) { return true }
                }
                return false
            }
            func addingPlaced(_ pattern: FinderPattern, to found: inout [FinderPattern]) -> Bool {
                guard found.count < CodeCorners.crowd else { return true }
                defer { found.append(pattern) }
                for j in found.indices {
                    for i in 0..<j where CodeCorners.fit(found[i], found[j], pattern) { return true }
                }
                return false
            }
            eachFinderPattern { pattern in
                defer { corners.places = max(dark.count, light.count) }
                if pattern.dark {
                    if !corners.dark { corners.dark = adding(pattern, to: &dark) }
                } else if !corners.light {
                    corners.light = addingPlaced(pattern, to: &light)
                }
                return corners.dark && corners.light
            }
        }
        return corners
    }
}
