import Foundation

// InverseStart: the first guess at the starting azimuth for Newton's method (the final answer
// for very short lines), with the astroid problem for nearly antipodal points.
//
// Part of the port of GeographicLib's geodesic inverse problem; see Geodesic.swift for its source
// and licence.

extension Geodesic {
    /// An azimuth as (sin α, cos α), with the great-circle arc sig12 it yields.
    struct Start {
        var sig12: Double            // >= 0 if the short-line solution is final, else -1
        var salp1: Double, calp1: Double
        var salp2: Double, calp2: Double
        var dnm: Double
    }

    /// A starting azimuth for Newton's method, or the final answer for short lines (then
    /// sig12 >= 0). Nearly antipodal points get their start from the astroid problem.
    static func inverseStart(_ p: EndPoints, lam12: Double, slam12: Double, clam12: Double) -> Start {
        let (sbet1, cbet1, sbet2, cbet2) = (p.sbet1, p.cbet1, p.sbet2, p.cbet2)
        // bet12 = bet2 - bet1 in [0, pi); bet12a = bet2 + bet1 in (-pi, 0]
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1

        var dnm = Double.nan
        var somg12 = slam12, comg12 = clam12
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        if shortline {
            // sin²((bet1 + bet2) / 2) = (sbet1 + sbet2)² / ((sbet1 + sbet2)² + (cbet1 + cbet2)²)
            var sbetm2 = GeoMath.sq(sbet1 + sbet2)
            sbetm2 /= sbetm2 + GeoMath.sq(cbet1 + cbet2)
            dnm = (1 + WGS84.ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (WGS84.f1 * dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        }

        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * GeoMath.sq(somg12) / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * GeoMath.sq(somg12) / (1 - comg12)
        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortline && ssig12 < WGS84.etol2 {
            // Really short: solve on the sphere with the mean-latitude radius.
            let salp2 = cbet1 * somg12
            let calp2 = sbet12 - cbet1 * sbet2
                * (comg12 >= 0 ? GeoMath.sq(somg12) / (1 + comg12) : 1 - comg12)
            let (s2, c2) = GeoMath.norm(salp2, calp2)
            let (s1, c1) = sanitised(salp1, calp1)
            return Start(sig12: atan2(ssig12, csig12), salp1: s1, calp1: c1, salp2: s2, calp2: c2, dnm: dnm)
        }
        // The zeroth-order spherical estimate is good unless the points are nearly antipodal.
        if !(csig12 >= 0 || ssig12 >= 6 * abs(WGS84.n) * .pi * GeoMath.sq(cbet1)) {
            (salp1, calp1) = antipodalStart(p, sbet12a: sbet12a, slam12: slam12, clam12: clam12)
        }
        let (s1, c1) = sanitised(salp1, calp1)
        return Start(sig12: -1, salp1: s1, calp1: c1, salp2: .nan, calp2: .nan, dnm: dnm)
    }

    /// Normalises a starting azimuth, replacing a nonsensical one (salp1 <= 0) by due east.
    /// The test is written backwards so NaN passes through.
    private static func sanitised(_ salp1: Double, _ calp1: Double) -> (Double, Double) {
        !(salp1 <= 0) ? GeoMath.norm(salp1, calp1) : (1, 0)
    }

    /// Starting azimuth for nearly antipodal points (Karney §5): scale to coordinates (x, y)
    /// where the antipode is the origin and the singular point is (-1, 0), then solve the
    /// astroid problem for the longitude difference omg12 and use the spherical formula.
    private static func antipodalStart(_ p: EndPoints, sbet12a: Double, slam12: Double,
                                       clam12: Double) -> (Double, Double) {
        let (sbet1, cbet1, cbet2) = (p.sbet1, p.cbet1, p.cbet2)
        let lam12x = atan2(-slam12, -clam12)   // pi - lam12, computed accurately
        // Oblate case: x = dlong, y = dlat.
        let k2 = GeoMath.sq(sbet1) * WGS84.ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let lamscale = WGS84.f * cbet1 * GeodesicSeries.a3(eps) * .pi
        let betscale = lamscale * cbet1
        let x = lam12x / lamscale
        let y = sbet12a / betscale

        if y > -Tolerance.tol1 && x > -1 - Tolerance.xthresh {
            // Strip near the cut: the geodesic passes close to a pole.
            let salp1 = min(1, -x)
            return (salp1, -(1 - GeoMath.sq(salp1)).squareRoot())
        }
        // Estimating omg12 from the astroid and then alp1 from the spherical formula takes
        // fewer Newton steps than estimating alp1 directly (Karney's measurements: 2.12 vs 2.24).
        let k = astroid(x, y)
        let omg12a = lamscale * (-x * k / (1 + k))   // pi - omg12, since omg12 is near pi
        let somg12 = sin(omg12a), comg12 = -cos(omg12a)
        return (cbet2 * somg12, sbet12a - cbet2 * sbet1 * GeoMath.sq(somg12) / (1 - comg12))
    }

    /// Positive root k of k⁴ + 2k³ - (x² + y² - 1)k² - 2y²k - y² = 0 (Karney eq. 55), solved in
    /// closed form as in GeographicLib's Geocentric::Reverse.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = GeoMath.sq(x), q = GeoMath.sq(y)
        let r = (p + q - 1) / 6
        // y = 0 with |x| <= 1: for small y the root is |y| / sqrt(1 - x²), so 0 here.
        if q == 0 && r <= 0 { return 0 }
        // Multiply the equations for s and t by r³ and r to avoid dividing by r = 0.
        let s = p * q / 4            // r³ s
        let r2 = GeoMath.sq(r), r3 = r * r2
        // The discriminant of the quadratic for T³; zero on the evolute p^(1/3) + q^(1/3) = 1.
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // Take the sign of the root that maximises |T³|, against cancellation; the result
            // does not depend on it because of how T enters u.
            t3 += t3 < 0 ? -disc.squareRoot() : disc.squareRoot()   // (r t)³
            let t = cbrt(t3)                                         // r t, real root
            u += t + (t != 0 ? r2 / t : 0)                           // r2 / T -> 0 as T -> 0
        } else {
            // T is complex but u is real; pick the cube root that avoids cancellation.
            let ang = atan2((-disc).squareRoot(), -(s + r3))
            u += 2 * r * cos(ang / 3)
        }
        let v = (GeoMath.sq(u) + q).squareRoot()         // > 0
        let uv = u < 0 ? q / (v - u) : u + v               // u + v without cancellation, > 0
        let w = (uv - q) / (2 * v)                         // >= 0
        return uv / ((uv + GeoMath.sq(w)).squareRoot() + w)   // rearranged against cancellation
    }
}
