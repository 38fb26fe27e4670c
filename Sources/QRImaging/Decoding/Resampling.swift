extension GrayImage {
    /// Box downscale by an integer factor: each output pixel is the mean of an n×n block.
    /// Averaging also smooths sensor noise and screen moiré, and tightens blur in pixels.
    func reduced(by n: Int) -> GrayImage {
        guard n > 1 else { return self }
        let outW = max(width / n, 1), outH = max(height / n, 1)
        var out = [UInt8](repeating: 255, count: outW * outH)
        let w = width, area = n * n
        pixels.withUnsafeBufferPointer { px in
            out.withUnsafeMutableBufferPointer { dst in
                var row = [Int](repeating: 0, count: outW)
                for oy in 0..<outH {
                    for i in 0..<outW { row[i] = 0 }
                    for y in (oy * n)..<min(oy * n + n, height) {
                        let base = y * w
                        for ox in 0..<outW {
                            var sum = 0
                            for x in (ox * n)..<min(ox * n + n, w) { sum += Int(px[base + x]) }
                            row[ox] += sum
                        }
                    }
                    for ox in 0..<outW { dst[oy * outW + ox] = UInt8(row[ox] / area) }
                }
            }
        }
        return GrayImage(width: outW, height: outH, pixels: out)
    }

    /// Bilinear upscale ×2: zbar's finder-pattern scan needs a few pixels a module, and a code
    /// photographed from afar has fewer.
    func enlarged() -> GrayImage {
        let outW = width * 2, outH = height * 2, w = width
        var out = [UInt8](repeating: 255, count: outW * outH)
        pixels.withUnsafeBufferPointer { px in
            out.withUnsafeMutableBufferPointer { dst in
                for oy in 0..<outH {
                    // Output pixel centres sit at quarter positions between input centres.
                    let fy = max(Double(oy) * 0.5 - 0.25, 0)
                    let y0 = min(Int(fy), height - 1), y1 = min(y0 + 1, height - 1)
                    let wy = Int((fy - Double(y0)) * 256)
                    for ox in 0..<outW {
                        let fx = max(Double(ox) * 0.5 - 0.25, 0)
                        let x0 = min(Int(fx), w - 1), x1 = min(x0 + 1, w - 1)
                        let wx = Int((fx - Double(x0)) * 256)
                        let top = Int(px[y0 * w + x0]) * (256 - wx) + Int(px[y0 * w + x1]) * wx
                        let bottom = Int(px[y1 * w + x0]) * (256 - wx) + Int(px[y1 * w + x1]) * wx
                        dst[oy * outW + ox] = UInt8((top * (256 - wy) + bottom * wy) >> 16)
                    }
                }
            }
        }
        return GrayImage(width: outW, height: outH, pixels: out)
    }
}
