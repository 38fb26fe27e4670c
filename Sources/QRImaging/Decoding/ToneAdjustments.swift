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
        var histogram = [Int](repeating: 0, count: 256)
        pixels.withUnsafeBufferPointer { px in
            histogram.withUnsafeMutableBufferPointer { h in for p in px { h[Int(p)] += 1 } }
        }
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

    /// Light for dark: codes printed light on dark, or shown on a dark-mode screen.
    func inverted() -> GrayImage {
        mapped((0..<256).map { UInt8(255 - $0) })
    }

    private func mapped(_ table: [UInt8]) -> GrayImage {
        var out = pixels
        table.withUnsafeBufferPointer { t in
            out.withUnsafeMutableBufferPointer { o in
                for i in o.indices { o[i] = t[Int(o[i])] }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }
}
