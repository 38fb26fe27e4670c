import Foundation

// Angle arithmetic in degrees for the WGS84 geodesic (Geodesic.swift and the files beside it).
//
// A port of GeographicLib's Math class (Math.cpp, 2.x), by Charles F. F. Karney, MIT/X11 licence,
// https://geographiclib.sourceforge.io/. Algorithms: C. F. F. Karney, "Algorithms for
// geodesics", J. Geodesy 87, 43–55 (2013), https://doi.org/10.1007/s00190-012-0578-z.
//
// Names follow GeographicLib so the port can be checked line by line against it.

/// Exact-as-possible angle arithmetic in degrees.
enum GeoMath {
    static let degree = Double.pi / 180

    @inline(__always)
    static func sq(_ x: Double) -> Double { x * x }

    /// Scales (x, y) to a unit vector; sine/cosine pairs stay consistent this way.
    @inline(__always)
    static func norm(_ x: Double, _ y: Double) -> (Double, Double) {
        let r = hypot(x, y)
        return (x / r, y / r)
    }

    /// Error-free transformation of a sum: u + v == s + t exactly, s = round(u + v).
    static func sum(_ u: Double, _ v: Double) -> (s: Double, t: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        // If s == 0, give t the sign of s, as GeographicLib does.
        let t = s != 0 ? 0 - (up + vpp) : s
        return (s, t)
    }

    /// Horner evaluation of the degree-`n` polynomial stored in p[s...s+n], highest power first.
    static func polyval(_ n: Int, _ p: [Double], _ s: Int, _ x: Double) -> Double {
        guard n >= 0 else { return 0 }
        var y = p[s]
        var i = s
        for _ in 0..<n {
            i += 1
            y = y * x + p[i]
        }
        return y
    }

    /// Rounds tiny angles so they underflow to zero: the smallest gap left is 2⁻⁵⁷ degrees
    /// (under a picometre on the ground), which keeps near-singular inputs such as a latitude of
    /// 1e-200 from reaching the degenerate branches.
    static func angRound(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        let w = z - y
        // Swift keeps IEEE semantics, so z - (z - y) is not folded back to y.
        y = w > 0 ? z - w : y
        return Double(signOf: x, magnitudeOf: y)
    }

    /// y - x reduced to [-180, 180], with the rounding error e: the true difference is d + e.
    /// Exact for longitudes such as 179.9 and -179.9 where naive subtraction loses digits.
    static func angDiff(_ x: Double, _ y: Double) -> (d: Double, e: Double) {
        var (d, e) = sum((-x).remainder(dividingBy: 360), y.remainder(dividingBy: 360))
        // The second sum can only change d if |d| < 128, so one more remainder suffices.
        (d, e) = sum(d.remainder(dividingBy: 360), e)
        // Fix the sign at -180, 0, 180: from y - x if exact, else opposite to the error.
        if d == 0 || abs(d) == 180 {
            d = Double(signOf: e == 0 ? y - x : -e, magnitudeOf: d)
        }
        return (d, e)
    }

    /// sin and cos of x degrees. The argument is reduced exactly to [-45, 45] before converting
    /// to radians, so sincosd(90) is exactly (1, 0) and sincosd(30).sin is exactly 0.5.
    static func sincosd(_ x: Double) -> (sin: Double, cos: Double) {
        let (d, q) = remquo90(x)
        let (s, c) = rotate(sincosReduced(d), quadrant: q)
        return finish(s, c, signSource: x)
    }

    /// sin and cos of (x + t) degrees, where t is a small correction to x (from angDiff).
    static func sincosde(_ x: Double, _ t: Double) -> (sin: Double, cos: Double) {
        let (d, q) = remquo90(x)
        let (s, c) = rotate(sincosReduced(angRound(d + t)), quadrant: q)
        return finish(s, c, signSource: x + t)
    }

    /// atan2(y, x) in degrees, computed in [-45, 45] and mapped to the quadrant, in [-180, 180].
    static func atan2d(_ y: Double, _ x: Double) -> Double {
        var (x, y) = (x, y)
        var q = 0
        if abs(y) > abs(x) { swap(&x, &y); q = 2 }
        if x.sign == .minus { x = -x; q += 1 }
        let ang = atan2(y, x) / degree
        switch q {
        case 1: return Double(signOf: y, magnitudeOf: 180) - ang
        case 2: return 90 - ang
        case 3: return -90 + ang
        default: return ang
        }
    }

    // MARK: - sincosd pieces

    /// Like C's remquo(x, 90): r in [-45, 45] with x = 90 q + r exactly (q only matters mod 4).
    private static func remquo90(_ x: Double) -> (r: Double, q: Int) {
        guard x.isFinite else { return (.nan, 0) }
        let r = x.remainder(dividingBy: 360)               // exact, in [-180, 180]
        let q = (r / 90).rounded(.toNearestOrEven)         // ties to even, like remquo
        return (r - 90 * q, Int(q))                        // exact, |r| <= 45
    }

    /// sin/cos of d degrees, |d| <= 45, with exact-as-possible values at ±45 and ±30.
    private static func sincosReduced(_ d: Double) -> (Double, Double) {
        let r = d * degree
        if 2 * abs(d) == 90 {
            let c = (0.5).squareRoot()
            return (Double(signOf: r, magnitudeOf: c), c)
        }
        if 3 * abs(d) == 90 {
            return (Double(signOf: r, magnitudeOf: 0.5), (3.0).squareRoot() / 2)
        }
        return (sin(r), cos(r))
    }

    private static func rotate(_ sc: (Double, Double), quadrant q: Int) -> (Double, Double) {
        let (s, c) = sc
        switch q & 3 {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    /// Signed zeros as C99 F.10.1.12/13 want them: cos is never -0, sin(±0) keeps the sign.
    private static func finish(_ s: Double, _ c: Double, signSource x: Double) -> (sin: Double, cos: Double) {
        (s == 0 ? Double(signOf: x, magnitudeOf: 0) : s, c + 0)
    }
}
