import Foundation

// Lambda12: where the geodesic leaving point 1 with a trial azimuth crosses the latitude of
// point 2, the function whose root Newton's method in Geodesic+Inverse.swift finds.
//
// Part of the port of GeographicLib's geodesic inverse problem; see Geodesic.swift for its source
// and licence.

extension Geodesic {
    /// What Lambda12 learns about the geodesic leaving point 1 with a trial azimuth.
    struct Trial {
        var lam12: Double            // longitude difference reached, minus the target
        var salp2: Double, calp2: Double
        var sig12: Double
        var ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
        var eps: Double
        var dlam12: Double           // derivative of lam12 with respect to alp1
    }

    /// Follows the geodesic leaving point 1 with azimuth alp1 to the latitude of point 2 and
    /// reports how far in longitude it got, relative to the target lam120 (the "hybrid problem").
    static func lambda12(_ p: EndPoints, salp1: Double, calp1 calp1In: Double,
                         slam120: Double, clam120: Double, wantDerivative: Bool) -> Trial {
        let (sbet1, cbet1, sbet2, cbet2) = (p.sbet1, p.cbet1, p.sbet2, p.cbet2)
        // Break the degeneracy of the equatorial line (that case was handled already).
        let calp1 = sbet1 == 0 && calp1In == 0 ? -Tolerance.tiny : calp1In

        // sin(alp1) cos(bet1) = sin(alp0), the azimuth at the equator crossing.
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)   // > 0

        // tan(bet1) = tan(sig1) cos(alp1); tan(omg1) = sin(alp0) tan(sig1).
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        let (ssig1, csig1) = GeoMath.norm(sbet1, comg1)   // omg1 needs no normalising

        // Enforce the symmetry |bet2| = -bet1 exactly, since Newton can be singular there.
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        // calp2 = sqrt(calp0² - sbet2²) / cbet2, rearranged for accuracy; alp2 in [0, pi/2].
        let calp2 = cbet2 != cbet1 || abs(sbet2) != -sbet1
            ? (GeoMath.sq(calp1 * cbet1) + (cbet1 < -sbet1
                ? (cbet2 - cbet1) * (cbet1 + cbet2)
                : (sbet1 - sbet2) * (sbet1 + sbet2))).squareRoot() / cbet2
            : abs(calp1)
        let somg2 = salp0 * sbet2, comg2 = calp2 * cbet2
        let (ssig2, csig2) = GeoMath.norm(sbet2, comg2)

        // sig12 = sig2 - sig1 and omg12 = omg2 - omg1, both limited to [0, pi].
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // eta = omg12 - lam120
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)

        let k2 = GeoMath.sq(calp0) * WGS84.ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3a = GeodesicSeries.c3(eps)
        let b312 = GeodesicSeries.sinSeries(ssig2, csig2, c3a, count: GeodesicSeries.order - 1)
            - GeodesicSeries.sinSeries(ssig1, csig1, c3a, count: GeodesicSeries.order - 1)
        let domg12 = -WGS84.f * GeodesicSeries.a3(eps) * salp0 * (sig12 + b312)
        let lam12 = eta + domg12

        var dlam12 = Double.nan
        if wantDerivative {
            if calp2 == 0 {
                dlam12 = -2 * WGS84.f1 * p.dn1 / sbet1
            } else {
                let m12b = lengths(eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: p.dn1,
                                   ssig2: ssig2, csig2: csig2, dn2: p.dn2, want: .reducedLength).m12b
                dlam12 = m12b * WGS84.f1 / (calp2 * cbet2)
            }
        }
        return Trial(lam12: lam12, salp2: salp2, calp2: calp2, sig12: sig12,
                     ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2, eps: eps, dlam12: dlam12)
    }
}
