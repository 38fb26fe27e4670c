import Foundation

extension GrayImage {
    /// The image turned by `degrees` about its centre onto a canvas large enough to hold it,
    /// white outside (a quiet zone), bilinear; with the map back to this image's pixels.
    func rotated(degrees: Double) -> (GrayImage, PointMap) {
        let t = degrees * .pi / 180, cosT = cos(t), sinT = sin(t)
        let outW = Int((Double(width) * abs(cosT) + Double(height) * abs(sinT)).rounded(.up))
        let outH = Int((Double(width) * abs(sinT) + Double(height) * abs(cosT)).rounded(.up))
        let cx = Double(width - 1) / 2, cy = Double(height - 1) / 2
        let ocx = Double(outW - 1) / 2, ocy = Double(outH - 1) / 2
        // Output (x, y) → source: rotate back by -t about the centres.
        let back = PointMap(a: cosT, b: sinT, tx: cx - cosT * ocx - sinT * ocy,
                            c: -sinT, d: cosT, ty: cy + sinT * ocx - cosT * ocy)
        var out = [UInt8](repeating: 255, count: outW * outH)
        let w = width, h = height
        pixels.withUnsafeBufferPointer { px in
            out.withUnsafeMutableBufferPointer { dst in
                for oy in 0..<outH {
                    for ox in 0..<outW {
                        let (sx, sy) = back.apply(x: Double(ox), y: Double(oy))
                        guard sx >= 0, sy >= 0, sx < Double(w - 1), sy < Double(h - 1) else { continue }
                        let x0 = Int(sx), y0 = Int(sy)
                        let fx = sx - Double(x0), fy = sy - Double(y0)
                        let i = y0 * w + x0
                        let top = Double(px[i]) * (1 - fx) + Double(px[i + 1]) * fx
                        let bottom = Double(px[i + w]) * (1 - fx) + Double(px[i + w + 1]) * fx
                        dst[oy * outW + ox] = UInt8(top * (1 - fy) + bottom * fy)
                    }
                }
            }
        }
        return (GrayImage(width: outW, height: outH, pixels: out), back)
    }
}
