/// Summed-area table of a grey image, for constant-time window means (adaptive binarisation,
/// box blur). Sums wrap in 32 bits: a window's sum is still exact, because no window holds
/// 2³² / 255 pixels.
struct IntegralImage {
    let width: Int, height: Int
    /// (width + 1) × (height + 1), first row and column zero.
    private let sums: [UInt32]

    init(_ image: GrayImage) {
        let width = image.width, height = image.height
        self.width = width
        self.height = height
        let stride = width + 1
        var sums = [UInt32](repeating: 0, count: stride * (height + 1))
        image.pixels.withUnsafeBufferPointer { px in
            sums.withUnsafeMutableBufferPointer { s in
                for y in 0..<height {
                    var row: UInt32 = 0
                    let src = y * width, above = y * stride, here = (y + 1) * stride
                    for x in 0..<width {
                        row &+= UInt32(px[src + x])
                        s[here + x + 1] = s[above + x + 1] &+ row
                    }
                }
            }
        }
        self.sums = sums
    }

    /// Mean of the window of half-size `r` around (x, y), clipped to the image.
    @inline(__always)
    func mean(x: Int, y: Int, r: Int, in s: UnsafeBufferPointer<UInt32>) -> Int {
        let x0 = max(x - r, 0), x1 = min(x + r + 1, width)
        let y0 = max(y - r, 0), y1 = min(y + r + 1, height)
        let stride = width + 1
        let sum = s[y1 * stride + x1] &- s[y0 * stride + x1] &- s[y1 * stride + x0] &+ s[y0 * stride + x0]
        return Int(sum) / ((x1 - x0) * (y1 - y0))
    }

    /// Runs `body` with the table, for `mean(x:y:r:in:)` in tight loops.
    func withSums<T>(_ body: (UnsafeBufferPointer<UInt32>) -> T) -> T {
        sums.withUnsafeBufferPointer(body)
    }
}
