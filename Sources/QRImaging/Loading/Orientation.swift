/// How a camera says its stored pixels must be turned to be seen upright: the EXIF
/// orientation tag, 1 (as stored) to 8.
public enum Orientation: Int, Sendable, Equatable, CaseIterable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    /// True when width and height swap between the stored and the upright image.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// The stored pixel that shows at upright position (x, y), for a stored image of
    /// `width` × `height`. Works for fractional positions (corners), too.
    public func storedPoint(x: Double, y: Double, storedWidth w: Int, storedHeight h: Int) -> (x: Double, y: Double) {
        let right = Double(w - 1), bottom = Double(h - 1)
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (right - x, y)
        case .down: return (right - x, bottom - y)
        case .downMirrored: return (x, bottom - y)
        case .leftMirrored: return (y, x)                     // 5: transpose
        case .right: return (y, bottom - x)                   // 6: turn 90° clockwise to view
        case .rightMirrored: return (right - y, bottom - x)   // 7: transverse
        case .left: return (right - y, x)                     // 8: turn 90° anticlockwise to view
        }
    }

    /// The upright image of `stored`.
    public func apply(to stored: GrayImage) -> GrayImage {
        guard self != .up else { return stored }
        let w = stored.width, h = stored.height
        let outW = swapsAxes ? h : w, outH = swapsAxes ? w : h
        var out = [UInt8](repeating: 0, count: w * h)
        stored.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<outH {
                    for x in 0..<outW {
                        let (sx, sy) = storedIndex(x: x, y: y, w: w, h: h)
                        dst[y * outW + x] = src[sy * w + sx]
                    }
                }
            }
        }
        return GrayImage(width: outW, height: outH, pixels: out)
    }

    private func storedIndex(x: Int, y: Int, w: Int, h: Int) -> (Int, Int) {
        switch self {
        case .up: (x, y)
        case .upMirrored: (w - 1 - x, y)
        case .down: (w - 1 - x, h - 1 - y)
        case .downMirrored: (x, h - 1 - y)
        case .leftMirrored: (y, x)
        case .right: (y, h - 1 - x)
        case .rightMirrored: (w - 1 - y, h - 1 - x)
        case .left: (w - 1 - y, x)
        }
    }
}
