extension GrayImage {
    /// Global contrast stretch: the darkest `clip` of pixels become black, the lightest white,
    /// and the rest spread linearly between. Lifts faded prints and grey-on-grey photos above
    /// zbar's edge threshold.
    func stretched(clip: Double = 0.01) -> GrayImage {
        stretched(clip: clip, unlessWithin: -1) ?? self
    }

    /// The stretch, or nil when the clipped range already reaches within `margin` grey levels
    /// of black and of white, so the stretch would change next to nothing.
    func stretched(clip: Double = 0.01, unlessWithin margin: Int) -> GrayImage? {
        let histogram = self.histogram()
        let cut = Int(Double(pixels.count) * clip)
        var low = 0, seen = 0
        while low < 255, seen + histogram[low] <= cut { seen += histogram[low]; low += 1 }
        var high = 255
        seen = 0
        while high > 0, seen + histogram[high] <= cut { seen += histogram[high]; high -= 1 }
        guard high > low else { return self }
        if low <= margin, high >= 255 - margin { return nil }
        let table = (0..<256).map { v in UInt8(clamping: (v - low) * 255 / (high - low)) }
        return mapped(table)
    }

    /// How many pixels have each grey level. Counted in four tables, a pixel in turn to each:
    /// neighbouring pixels are often alike, and one table had every count wait for the one
    /// before it to be stored.
    func histogram() -> [Int] {
        var counts = [UInt32](repeating: 0, count: 4 * 256)
        pixels.withUnsafeBufferPointer { px in
            counts.withUnsafeMutableBufferPointer { c in
                guard let p = px.baseAddress, let c = c.baseAddress else { return }
                let n = px.count, quads = n & ~3
                var i = 0
                while i < quads {
                    c[Int(p[i])] &+= 1
                    c[256 &+ Int(p[i &+ 1])] &+= 1
                    c[512 &+ Int(p[i &+ 2])] &+= 1
                    c[768 &+ Int(p[i &+ 3])] &+= 1
                    i &+= 4
                }
                while i < n { c[Int(p[i])] &+= 1; i &+= 1 }
            }
        }
        // A picture's pixels fit in an Int; each table holds a quarter of them, in 32 bits
        // as long as a picture has fewer than 2³⁴ pixels.
        return (0..<256).map { Int(counts[$0]) + Int(counts[256 + $0]) + Int(counts[512 + $0]) + Int(counts[768 + $0]) }
    }

    /// Light for dark: codes printed light on dark, or shown on a dark-mode screen.
    func inverted() -> GrayImage {
        mapped((0..<256).map { UInt8(255 - $0) })
    }

    private func mapped(_ table: [UInt8]) -> GrayImage {
        var out = pixels
        table.withUnsafeBufferPointer { t in
            out.withUnsafeMutableBufferPointer { o in
                guard let t = t.baseAddress, let o = o.baseAddress else { return }
                for i in 0..<pixels.count { o[i] = t[Int(o[i])] }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }
}
