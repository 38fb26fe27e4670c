extension GrayImage {
    /// Local (adaptive) binarisation: a pixel is dark when it is `percent`% darker than the
    /// mean of the window around it (Bradley's method). Shadows and uneven light move the
    /// local mean with them, so one threshold no longer has to fit the whole picture.
    func binarized(window: Int, percent: Int = 12) -> GrayImage {
        let table = IntegralImage(self)
        let r = max(window / 2, 1), w = width, h = height, stride = w + 1
        // Dark when mean · (100 − percent) > pixel · 100, the mean a whole number (sum / area,
        // rounded down): the same as sum ≥ least · area, where `least` is the smallest whole
        // mean that makes this pixel dark. No division per pixel.
        let keep = 100 - percent
        let least = (0..<256).map { $0 * 100 / keep + 1 }
        var out = [UInt8](repeating: 255, count: pixels.count)
        pixels.withUnsafeBufferPointer { px in
            out.withUnsafeMutableBufferPointer { dst in
                least.withUnsafeBufferPointer { least in
                    table.withSums { s in
                        for y in 0..<h {
                            let y0 = max(y - r, 0), y1 = min(y + r + 1, h)
                            let top = y0 * stride, bottom = y1 * stride, rows = y1 - y0, row = y * w
                            @inline(__always) func edge(_ x: Int) {
                                let x0 = max(x - r, 0), x1 = min(x + r + 1, w)
                                let sum = Int(s[bottom + x1] &- s[top + x1] &- s[bottom + x0] &+ s[top + x0])
                                if sum >= least[Int(px[row + x])] * (x1 - x0) * rows { dst[row + x] = 0 }
                            }
                            // Away from the sides the window is whole: no clamping, one area.
                            let inner = min(r, w)..<max(w - r, min(r, w)), area = (2 * r + 1) * rows
                            for x in 0..<inner.lowerBound { edge(x) }
                            for x in inner {
                                let sum = Int(s[bottom + x + r + 1] &- s[top + x + r + 1] &- s[bottom + x - r] &+ s[top + x - r])
                                if sum >= least[Int(px[row + x])] * area { dst[row + x] = 0 }
                            }
                            for x in inner.upperBound..<w { edge(x) }
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
