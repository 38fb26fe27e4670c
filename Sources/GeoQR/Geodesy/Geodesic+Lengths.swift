import Foundation

// Lengths: distance and reduced length along a geodesic between two points of the auxiliary
// sphere, from the series for the distance and reduced-length integrals.
//
// Part of the port of GeographicLib's geodesic inverse problem; see Geodesic.swift for its source
// and licence.

extension Geodesic {
    /// Which of GeographicLib's Lengths outputs a caller needs.
    enum LengthsWanted { case distance, reducedLength, both }

    /// Distance s12 / b and reduced length m12 / b (NaN when not wanted) along a geodesic with
    /// parameter eps between auxiliary-sphere points sig1 and sig2 (Karney eqs. 15, 38).
    static func lengths(eps: Double, sig12: Double,
                        ssig1: Double, csig1: Double, dn1: Double,
                        ssig2: Double, csig2: Double, dn2: Double,
                        want: LengthsWanted) -> (s12b: Double, m12b: Double) {
        let n = GeodesicSeries.order
        let a1m1 = GeodesicSeries.a1m1(eps)
        let c1a = GeodesicSeries.c1(eps)
        let a1 = 1 + a1m1
        // B1, the periodic part of the distance integral.
        let b1 = want == .reducedLength ? 0 :
            GeodesicSeries.sinSeries(ssig2, csig2, c1a, count: n)
            - GeodesicSeries.sinSeries(ssig1, csig1, c1a, count: n)
        let s12b = want == .reducedLength ? .nan : a1 * (sig12 + b1)   // missing a factor of b
        if want == .distance { return (s12b, .nan) }

        let a2m1 = GeodesicSeries.a2m1(eps)
        var c2a = GeodesicSeries.c2(eps)
        let m0x = a1m1 - a2m1
        let a2 = 1 + a2m1
        let j12: Double
        if want == .both {
            let b2 = GeodesicSeries.sinSeries(ssig2, csig2, c2a, count: n)
                - GeodesicSeries.sinSeries(ssig1, csig1, c2a, count: n)
            j12 = m0x * sig12 + (a1 * b1 - a2 * b2)
        } else {
            // Combine the two series first: one Clenshaw sum instead of two. (C/C++ combine all
            // six terms; geodesic.py 2.1's range(1, nC2_) stops at five, which only perturbs the
            // Newton derivative, not the result.)
            c2a = a1 * c1a - a2 * c2a
            j12 = m0x * sig12 + (GeodesicSeries.sinSeries(ssig2, csig2, c2a, count: n)
                                 - GeodesicSeries.sinSeries(ssig1, csig1, c2a, count: n))
        }
        // Parenthesised products cancel accurately for coincident points. Missing a factor of b.
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (s12b, m12b)
    }
}
