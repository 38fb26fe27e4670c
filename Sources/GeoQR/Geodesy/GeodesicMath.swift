import Foundation

// Angle helpers and series expansions for the WGS84 geodesic in Geodesic.swift.
//
// A port of GeographicLib's Math class (Math.cpp, 2.x) and of the series parts of its Geodesic
// class (geodesic.c / geographiclib/geodesic.py), by Charles F. F. Karney, MIT/X11 licence,
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

// MARK: - Series (order 6, as GeographicLib uses for doubles)

/// Coefficients c[1]...c[6] of a trigonometric series; c[0] and c[7] are unused and zero.
///
/// A SIMD8 is a fixed-size value kept in registers or on the stack, so computing a geodesic
/// allocates nothing per call. The constant tables below are ordinary arrays, built once.
typealias SeriesCoefficients = SIMD8<Double>

enum GeodesicSeries {
    static let order = 6   // nA1 = nC1 = nA2 = nC2 = nA3 = nC3 = 6

    /// Clenshaw summation of sum(c[i] * sin(2 i x), i = 1...n), given sin x and cos x.
    /// (GeographicLib's SinCosSeries with sinp = true; the cosine form is only for areas.)
    static func sinSeries(_ sinx: Double, _ cosx: Double, _ c: SeriesCoefficients, count n: Int) -> Double {
        var k = n + 1                                   // one beyond the last element
        let ar = 2 * (cosx - sinx) * (cosx + sinx)      // 2 cos(2x)
        var y0 = 0.0, y1 = 0.0
        if n & 1 == 1 { k -= 1; y0 = c[k] }
        // Now an even number of terms is left; unroll by two so y0, y1 keep their roles.
        for _ in 0..<(n / 2) {
            k -= 1; y1 = ar * y0 - y1 + c[k]
            k -= 1; y0 = ar * y1 - y0 + c[k]
        }
        return 2 * sinx * cosx * y0                     // sin(2x) * y0
    }

    /// A1 - 1, the scale of the distance integral (Karney eq. 17).
    static func a1m1(_ eps: Double) -> Double {
        let m = order / 2
        let t = GeoMath.polyval(m, a1Table, 0, GeoMath.sq(eps)) / a1Table[m + 1]
        return (t + eps) / (1 - eps)
    }

    /// C1[l], the Fourier coefficients of the distance integral (Karney eq. 18).
    static func c1(_ eps: Double) -> SeriesCoefficients {
        evenOddSeries(eps, c1Table)
    }

    /// A2 - 1, the scale of the reduced-length integral (Karney eq. 42).
    static func a2m1(_ eps: Double) -> Double {
        let m = order / 2
        let t = GeoMath.polyval(m, a2Table, 0, GeoMath.sq(eps)) / a2Table[m + 1]
        return (t - eps) / (1 + eps)
    }

    /// C2[l], the Fourier coefficients of the reduced-length integral (Karney eq. 43).
    static func c2(_ eps: Double) -> SeriesCoefficients {
        evenOddSeries(eps, c2Table)
    }

    /// A3(eps), the scale of the longitude integral (Karney eq. 24), for WGS84's n.
    static func a3(_ eps: Double) -> Double {
        GeoMath.polyval(order - 1, a3x, 0, eps)
    }

    /// C3[l] for l = 1...5, the Fourier coefficients of the longitude integral (Karney eq. 25).
    static func c3(_ eps: Double) -> SeriesCoefficients {
        var c = SeriesCoefficients()
        var mult = 1.0
        var o = 0
        for l in 1..<order {
            let m = order - l - 1                       // order of polynomial in eps
            mult *= eps
            c[l] = mult * GeoMath.polyval(m, c3x, o, eps)
            o += m + 1
        }
        return c
    }

    /// Shared shape of C1 and C2: c[l] = eps^l * P_l(eps²) / denominator_l.
    private static func evenOddSeries(_ eps: Double, _ coeff: [Double]) -> SeriesCoefficients {
        var c = SeriesCoefficients()
        let eps2 = GeoMath.sq(eps)
        var d = eps
        var o = 0
        for l in 1...order {
            let m = (order - l) / 2                     // order of polynomial in eps²
            c[l] = d * GeoMath.polyval(m, coeff, o, eps2) / coeff[o + m + 1]
            o += m + 2
            d *= eps
        }
        return c
    }

    // Coefficient tables from GeographicLib (geodesic.c), one polynomial per coefficient,
    // numerator coefficients first, then the denominator.
    private static let a1Table: [Double] = [1, 4, 64, 0, 256]
    private static let a2Table: [Double] = [-11, -28, -192, 0, 256]

    private static let c1Table: [Double] = [
        -1, 6, -16, 32,
        -9, 64, -128, 2048,
        9, -16, 768,
        3, -5, 512,
        -7, 1280,
        -7, 2048,
    ]

    private static let c2Table: [Double] = [
        1, 2, 16, 32,
        35, 64, 384, 2048,
        15, 80, 768,
        7, 35, 512,
        63, 1280,
        77, 2048,
    ]

    /// A3 as a polynomial in eps, its coefficients being polynomials in the third flattening
    /// n; fixed for WGS84, so evaluated once.
    static let a3x: [Double] = {
        let coeff: [Double] = [
            -3, 128,
            -2, -3, 64,
            -1, -3, -1, 16,
            3, -1, -2, 8,
            1, -1, 2,
            1, 1,
        ]
        var x: [Double] = []
        var o = 0
        for j in stride(from: order - 1, through: 0, by: -1) {   // coefficient of eps^j
            let m = min(order - j - 1, j)                        // order of polynomial in n
            x.append(GeoMath.polyval(m, coeff, o, WGS84.n) / coeff[o + m + 1])
            o += m + 2
        }
        return x
    }()

    /// C3 coefficients as polynomials in eps, for WGS84's n; 15 values, evaluated once.
    static let c3x: [Double] = {
        let coeff: [Double] = [
            3, 128,
            2, 5, 128,
            -1, 3, 3, 64,
            -1, 0, 1, 8,
            -1, 1, 4,
            5, 256,
            1, 3, 128,
            -3, -2, 3, 64,
            1, -3, 2, 32,
            7, 512,
            -10, 9, 384,
            5, -9, 5, 192,
            7, 512,
            -14, 7, 512,
            21, 2560,
        ]
        var x: [Double] = []
        var o = 0
        for l in 1..<order {                                          // index of C3[l]
            for j in stride(from: order - 1, through: l, by: -1) {    // coefficient of eps^j
                let m = min(order - j - 1, j)                         // order of polynomial in n
                x.append(GeoMath.polyval(m, coeff, o, WGS84.n) / coeff[o + m + 1])
                o += m + 2
            }
        }
        return x
    }()
}
