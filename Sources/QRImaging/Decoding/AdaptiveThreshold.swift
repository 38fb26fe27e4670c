extension GrayImage {
    /// Local (adaptive) binarisation: a pixel is dark when it is `percent`% darker than the
    /// mean of the window around it (Bradley's method). Shadows and uneven light move the
    /// local mean with them, so one threshold no longer has to fit the whole picture.
    func binarized(window: Int, percent: Int = 12) -> GrayImage {
        let table = IntegralImage(self)
        let r = max(window / 2, 1), w = width
        var out = [UInt8](repeating: 255, count: pixels.count)
        pixels.withUnsafeBufferPointer { px in
            out.withUnsafeMutableBufferPointer { dst in
                table.withSums { s in
                    for y in 0..<height {
                        for x in 0..<w {
                            let i = y * w + x
                            if Int(px[i]) * 100 < table.mean(x: x, y: y, r: r, in: s) * (100 - percent) { dst[i] = 0 }
                        }
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// A window about an eighth of the shorter side: several modules of any code that fills a
    /// fair part of the picture, smaller than the spread of a shadow.
    var adaptiveWindow: Int { max(15, min(width, height) / 8) | 1 }
}
