/// An affine map from a pass's working image back to the image it was made from, so corners
/// found in a scaled or rotated copy are reported where they are in the picture.
struct PointMap: Sendable {
    var a = 1.0, b = 0.0, tx = 0.0
    var c = 0.0, d = 1.0, ty = 0.0

    static let identity = PointMap()

    /// From an image `from` to the one of size `to` it was scaled from.
    static func scaling(from: GrayImage, toWidth: Int, toHeight: Int) -> PointMap {
        let sx = Double(toWidth) / Double(from.width), sy = Double(toHeight) / Double(from.height)
        // Pixel centres: x + 0.5 scales to (x + 0.5)·s.
        return PointMap(a: sx, b: 0, tx: 0.5 * sx - 0.5, c: 0, d: sy, ty: 0.5 * sy - 0.5)
    }

    func apply(x: Double, y: Double) -> (x: Double, y: Double) {
        (a * x + b * y + tx, c * x + d * y + ty)
    }

    /// `self` after `next`: first map with `self`, then with `next`.
    func then(_ next: PointMap) -> PointMap {
        PointMap(a: next.a * a + next.b * c, b: next.a * b + next.b * d, tx: next.a * tx + next.b * ty + next.tx,
                 c: next.c * a + next.d * c, d: next.c * b + next.d * d, ty: next.c * tx + next.d * ty + next.ty)
    }
}

extension DecodedSymbol {
    /// The same symbol with its corners moved through `map`.
    func mapped(_ map: PointMap) -> DecodedSymbol {
        let moved = corners.map { p in
            let q = map.apply(x: Double(p.x), y: Double(p.y))
            return (x: Int(q.x.rounded()), y: Int(q.y.rounded()))
        }
        return DecodedSymbol(raw: raw, symbology: symbology, corners: moved)
    }
}
