import Foundation

// The series expansions of the geodesic integrals (order 6, as GeographicLib uses for doubles):
// their coefficients as functions of eps and their Clenshaw summation.
//
// A port of the series parts of GeographicLib's Geodesic class (geodesic.c /
// geographiclib/geodesic.py, 2.x), by Charles F. F. Karney, MIT/X11 licence,
// https://geographiclib.sourceforge.io/. Algorithms: C. F. F. Karney, "Algorithms for
// geodesics", J. Geodesy 87, 43–55 (2013), https://doi.org/10.1007/s00190-012-0578-z.
//
// Names follow GeographicLib so the port can be checked line by line against it.

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
