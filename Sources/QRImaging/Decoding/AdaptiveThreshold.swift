extension GrayImage {
    /// Local (adaptive) binarisation: a pixel is dark when it is `percent`% darker than the
    /// mean of the window around it (Bradley's method). Shadows and uneven light move the
    /// local mean with them, so one threshold no longer has to fit the whole picture.
    ///
    /// A camera frame is binarised before zbar sees it, so this runs on every frame a phone
    /// sends. The window's sums come from running column sums, not a summed-area table: each
    /// row adds the row entering the window to every column and takes away the row leaving
    /// it, and one running sum along the row gives every window's total; and a pixel's level
    /// is set without a branch. Against the summed-area table and a branch a pixel, a third
    /// less time (perf samples beside zbar's on the gravel and street frames).
    func binarized(window: Int, percent: Int = 12) -> GrayImage {
        let r = max(window / 2, 1), w = width, h = height
        guard w > 0, h > 0 else { return self }
        // Dark when mean · (100 − percent) > pixel · 100, the mean a whole number (sum / area,
        // rounded down): the same as sum ≥ least · area, where `least` is the smallest whole
        // mean that makes this pixel dark. No division per pixel.
        let keep = 100 - percent
        let least = (0..<256).map { $0 * 100 / keep + 1 }
        var out = [UInt8](repeating: 0, count: pixels.count)
        // The sum of each column over the window's rows, and those sums summed along the row
        // (prefix[x] = columns[0..<x]). They wrap in 32 bits, and a window's sum, a difference
        // of two, is still exact: no window holds 2³² / 255 pixels.
        var columns = [UInt32](repeating: 0, count: w)
        var prefix = [UInt32](repeating: 0, count: w + 1)
        // Pointers and wrapping arithmetic throughout: the index checks of `row + x` kept the
        // column loops from being vectorised, and they were half the time.
        pixels.withUnsafeBufferPointer { pxBuffer in
            out.withUnsafeMutableBufferPointer { dstBuffer in
                least.withUnsafeBufferPointer { leastBuffer in
                    columns.withUnsafeMutableBufferPointer { columnBuffer in
                        prefix.withUnsafeMutableBufferPointer { prefixBuffer in
                            let px = pxBuffer.baseAddress!, dst = dstBuffer.baseAddress!, least = leastBuffer.baseAddress!
                            let columns = columnBuffer.baseAddress!, prefix = prefixBuffer.baseAddress!
                            var top = 0, bottom = 0   // the rows in `columns`: top..<bottom
                            for y in 0..<h {
                                let enter = min(y + r + 1, h), leave = max(y - r, 0)
                                // In the middle of the picture one row enters and one leaves: one pass.
                                if bottom < enter, top < leave, bottom + 1 == enter, top + 1 == leave {
                                    Self.slide(columns, adding: px + bottom * w, removing: px + top * w, count: w)
                                    bottom = enter
                                    top = leave
                                }
                                while bottom < enter {
                                    Self.slide(columns, adding: px + bottom * w, count: w)
                                    bottom += 1
                                }
                                while top < leave {
                                    Self.slide(columns, removing: px + top * w, count: w)
                                    top += 1
                                }
                                var running: UInt32 = 0
                                for x in 0..<w {
                                    running &+= columns[x]
                                    prefix[x &+ 1] = running
                                }
                                let rows = bottom - top, source = px + y * w, target = dst + y * w
                                @inline(__always) func edge(_ x: Int) {
                                    let x0 = max(x - r, 0), x1 = min(x + r + 1, w)
                                    let sum = Int(prefix[x1] &- prefix[x0])
                                    target[x] = Self.level(sum, least[Int(source[x])] * (x1 - x0) * rows)
                                }
                                // Away from the sides the window is whole: no clamping, one area.
                                let inner = min(r, w)..<max(w - r, min(r, w)), area = (2 * r + 1) * rows
                                for x in 0..<inner.lowerBound { edge(x) }
                                let ahead = prefix + (r + 1), behind = prefix - r
                                for x in inner {
                                    let sum = Int(ahead[x] &- behind[x])
                                    target[x] = Self.level(sum, least[Int(source[x])] &* area)
                                }
                                for x in inner.upperBound..<w { edge(x) }
                            }
                        }
                    }
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    /// Adds a row entering the window to the column sums and takes away one leaving it.
    @inline(__always)
    private static func slide(_ columns: UnsafeMutablePointer<UInt32>, adding entering: UnsafePointer<UInt8>,
                              removing leaving: UnsafePointer<UInt8>, count: Int) {
        for x in 0..<count { columns[x] = columns[x] &+ UInt32(entering[x]) &- UInt32(leaving[x]) }
    }

    @inline(__always)
    private static func slide(_ columns: UnsafeMutablePointer<UInt32>, adding entering: UnsafePointer<UInt8>, count: Int) {
        for x in 0..<count { columns[x] &+= UInt32(entering[x]) }
    }

    @inline(__always)
    private static func slide(_ columns: UnsafeMutablePointer<UInt32>, removing leaving: UnsafePointer<UInt8>, count: Int) {
        for x in 0..<count { columns[x] &-= UInt32(leaving[x]) }
    }

    /// 0 (dark) when `sum` reaches `threshold`, else 255, without a branch: on gravel or
    /// foliage the two are as likely as a coin's sides, and a branch guessed wrong each time.
    @inline(__always)
    private static func level(_ sum: Int, _ threshold: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (sum &- threshold) >> 63)
    }

    /// A window about an eighth of the shorter side: several modules of any code that fills a
    /// fair part of the picture, smaller than the spread of a shadow.
    var adaptiveWindow: Int { max(15, min(width, height) / 8) | 1 }
}
