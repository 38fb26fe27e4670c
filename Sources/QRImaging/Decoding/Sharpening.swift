extension GrayImage {
    /// Unsharp mask: adds back `amount` times the difference from a box blur of half-size
    /// `radius`, which steepens the edges a soft focus or motion has spread.
    func sharpened(radius: Int = 2, amount: Int = 2) -> GrayImage {
        let table = IntegralImage(self)
        let w = width
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { px in
            out.withUnsafeMutableBufferPointer { dst in
                table.withSums { s in
                    for y in 0..<height {
                        for x in 0..<w {
                            let i = y * w + x, p = Int(px[i])
                            let v = p + amount * (p - table.mean(x: x, y: y, r: radius, in: s))
                            dst[i] = UInt8(clamping: v)
                        }
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }
}
