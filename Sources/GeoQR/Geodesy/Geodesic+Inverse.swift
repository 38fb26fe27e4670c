import Foundation

// GeographicLib's GenInverse: brings the two points to canonical form, picks the meridional,
// equatorial or short-line solution where one applies, and otherwise solves for the starting
// azimuth by Newton's method on Lambda12.
//
// Part of the port of GeographicLib's geodesic inverse problem; see Geodesic.swift for its source
// and licence.

/// The raw solution: distance in metres, azimuths as sine/cosine pairs (not normalised).
struct InverseSolution {
    var s12: Double
    var salp1: Double, calp1: Double
    var salp2: Double, calp2: Double
}

extension Geodesic {
    /// Reduced latitudes of the two (canonicalised) end points: sin β, cos β and the factor dn.
    struct EndPoints {
        var sbet1: Double, cbet1: Double, dn1: Double
        var sbet2: Double, cbet2: Double, dn2: Double
    }

    /// GeographicLib's GenInverse, restricted to distance and azimuths.
    ///
    /// The points are first brought to a canonical form (0 <= lon12 <= 180, lat1 <= 0,
    /// lat1 <= lat2 <= -lat1) so there are few cases to check; the signs below record the
    /// transformation and undo it at the end.
    static func solveInverse(_ lat1: Double, _ lon1: Double,
                             _ lat2: Double, _ lon2: Double) -> InverseSolution {
        // Longitude difference, exact (with its rounding error) and made positive.
        var (lon12, lon12s) = GeoMath.angDiff(lon1, lon2)
        var lonsign = Double(signOf: lon12, magnitudeOf: 1)
        lon12 *= lonsign
        lon12s *= lonsign
        let lam12 = lon12 * GeoMath.degree
        let (slam12, clam12) = GeoMath.sincosde(lon12, lon12s)
        lon12s = (180 - lon12) - lon12s   // the supplementary longitude difference

        // Points really close to the equator are treated as on it; latitudes beyond ±90 are NaN.
        var lat1 = GeoMath.angRound(abs(lat1) > 90 ? .nan : lat1)
        var lat2 = GeoMath.angRound(abs(lat2) > 90 ? .nan : lat2)
        // Point 1 has the larger |latitude| (a NaN latitude becomes lat1)...
        let swapp: Double = abs(lat1) < abs(lat2) || lat2.isNaN ? -1 : 1
        if swapp < 0 {
            lonsign *= -1
            swap(&lat1, &lat2)
        }
        // ...and lies in the southern hemisphere.
        let latsign = Double(signOf: -lat1, magnitudeOf: 1)
        lat1 *= latsign
        lat2 *= latsign

        let p = endPoints(lat1, lat2)
        var r = canonicalSolution(p, lat1: lat1, lon12: lon12, lon12s: lon12s,
                                  lam12: lam12, slam12: slam12, clam12: clam12)

        // Undo the canonical transformation.
        if swapp < 0 {
            swap(&r.salp1, &r.salp2)
            swap(&r.calp1, &r.calp2)
        }
        r.salp1 *= swapp * lonsign; r.calp1 *= swapp * latsign
        r.salp2 *= swapp * lonsign; r.calp2 *= swapp * latsign
        r.s12 += 0   // -0 to 0
        return r
    }

    /// Reduced latitudes β (tan β = (1 - f) tan φ) of the canonical end points.
    private static func endPoints(_ lat1: Double, _ lat2: Double) -> EndPoints {
        var (sbet1, cbet1) = GeoMath.sincosd(lat1)
        (sbet1, cbet1) = GeoMath.norm(sbet1 * WGS84.f1, cbet1)
        cbet1 = max(Tolerance.tiny, cbet1)   // cos β = +epsilon at the poles, never 0
        var (sbet2, cbet2) = GeoMath.sincosd(lat2)
        (sbet2, cbet2) = GeoMath.norm(sbet2 * WGS84.f1, cbet2)
        cbet2 = max(Tolerance.tiny, cbet2)

        // If cbet1 < -sbet1, cbet2 - cbet1 measures |bet1| - |bet2| best, else |sbet2| + sbet1
        // does. When that measure vanishes, force bet2 = ±bet1 exactly: Lambda12 relies on it
        // (e.g. 48.522876735459 0 -48.52287673545898293 179.599720456223079643).
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = Double(signOf: sbet2, magnitudeOf: sbet1) }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = (1 + WGS84.ep2 * GeoMath.sq(sbet1)).squareRoot()
        let dn2 = (1 + WGS84.ep2 * GeoMath.sq(sbet2)).squareRoot()
        return EndPoints(sbet1: sbet1, cbet1: cbet1, dn1: dn1, sbet2: sbet2, cbet2: cbet2, dn2: dn2)
    }

    /// Solves the canonical problem: meridional, equatorial, short, or by Newton's method.
    private static func canonicalSolution(_ p: EndPoints, lat1: Double, lon12: Double, lon12s: Double,
                                          lam12: Double, slam12: Double, clam12: Double) -> InverseSolution {
        // Both points on one full meridian: the geodesic may run along it.
        if lat1 == -90 || slam12 == 0, let r = meridional(p, slam12: slam12, clam12: clam12) {
            return r
        }
        // Both on the equator, and not so far apart that the geodesic leaves it (it does when
        // lon12 is within f * 180 degrees of 180: then it goes over a pole).
        if p.sbet1 == 0 && lon12s >= WGS84.f * 180 {   // sbet2 == 0 too, by canonical order
            return InverseSolution(s12: WGS84.a * lam12, salp1: 1, calp1: 0, salp2: 1, calp2: 0)
        }
        let start = inverseStart(p, lam12: lam12, slam12: slam12, clam12: clam12)
        if start.sig12 >= 0 {
            // Short line: the spherical solution with the mean-latitude radius is final.
            return InverseSolution(s12: start.sig12 * WGS84.b * start.dnm,
                                   salp1: start.salp1, calp1: start.calp1,
                                   salp2: start.salp2, calp2: start.calp2)
        }
        return newton(p, start: start, slam12: slam12, clam12: clam12)
    }

    /// The meridional geodesic, or nil if the endpoints are on a meridian but going along it is
    /// not the shortest path (only possible on prolate ellipsoids, kept for fidelity).
    private static func meridional(_ p: EndPoints, slam12: Double, clam12: Double) -> InverseSolution? {
        let calp1 = clam12, salp1 = slam12   // head to the target longitude
        let calp2 = 1.0, salp2 = 0.0         // at the target we're heading north
        // tan β = tan σ cos α
        let ssig1 = p.sbet1, csig1 = calp1 * p.cbet1
        let ssig2 = p.sbet2, csig2 = calp2 * p.cbet2
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0,
                          csig1 * csig2 + ssig1 * ssig2)
        var (s12x, m12x) = lengths(eps: WGS84.n, sig12: sig12,
                                   ssig1: ssig1, csig1: csig1, dn1: p.dn1,
                                   ssig2: ssig2, csig2: csig2, dn2: p.dn2, want: .both)
        // sig12 > pi/2 with m12 < 0 would mean a meridian that is not a shortest path.
        guard sig12 < Tolerance.tol2 || m12x >= 0 else { return nil }
        // Coincident points (e.g. 20.001 0 20.001 0) must not give a tiny negative length.
        if sig12 < 3 * Tolerance.tiny || (sig12 < Tolerance.tol0 && (s12x < 0 || m12x < 0)) {
            s12x = 0
            m12x = 0
        }
        return InverseSolution(s12: s12x * WGS84.b, salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2)
    }

    /// Newton's method on alp1 for lambda12(alp1) = lam12.
    ///
    /// f(alp1) = lambda12(alp1) - lam12 has exactly one root in (0, pi) with positive slope. A
    /// bracket (alp1a, alp1b) around it shrinks with every evaluation; when a Newton step has a
    /// non-positive slope or leaves (0, pi), the midpoint of the bracket is used instead.
    private static func newton(_ p: EndPoints, start: Start, slam12: Double, clam12: Double) -> InverseSolution {
        var salp1 = start.salp1, calp1 = start.calp1
        var numit = 0
        var tripn = false, tripb = false
        var salp1a = Tolerance.tiny, calp1a = 1.0
        var salp1b = Tolerance.tiny, calp1b = -1.0
        var t: Trial
        while true {
            t = lambda12(p, salp1: salp1, calp1: calp1, slam120: slam12, clam120: clam12,
                         wantDerivative: numit < Tolerance.maxit1)
            let v = t.lam12
            // Written so that a NaN also ends the loop.
            if tripb || !(abs(v) >= (tripn ? 8 : 1) * Tolerance.tol0) || numit == Tolerance.maxit2 {
                break
            }
            // Update the bracket.
            if v > 0 && (numit > Tolerance.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                salp1b = salp1; calp1b = calp1
            } else if v < 0 && (numit > Tolerance.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                salp1a = salp1; calp1a = calp1
            }
            numit += 1
            if numit < Tolerance.maxit1 && t.dlam12 > 0 {
                let dalp1 = -v / t.dlam12
                if abs(dalp1) < .pi {
                    let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                    let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                    if nsalp1 > 0 {
                        calp1 = calp1 * cdalp1 - salp1 * sdalp1
                        (salp1, calp1) = GeoMath.norm(nsalp1, calp1)
                        // Where the slope tends to 0 convergence is not quadratic, so test
                        // against epsilon rather than sqrt(epsilon).
                        tripn = abs(v) <= 16 * Tolerance.tol0
                        continue
                    }
                }
            }
            // Bisect the bracket. Not needed for WGS84 in practice, but it makes the iteration
            // robust for more eccentric ellipsoids.
            (salp1, calp1) = GeoMath.norm((salp1a + salp1b) / 2, (calp1a + calp1b) / 2)
            tripn = false
            tripb = abs(salp1a - salp1) + (calp1a - calp1) < Tolerance.tolb
                || abs(salp1 - salp1b) + (calp1 - calp1b) < Tolerance.tolb
        }
        let s12b = lengths(eps: t.eps, sig12: t.sig12, ssig1: t.ssig1, csig1: t.csig1, dn1: p.dn1,
                           ssig2: t.ssig2, csig2: t.csig2, dn2: p.dn2, want: .distance).s12b
        return InverseSolution(s12: s12b * WGS84.b, salp1: salp1, calp1: calp1,
                               salp2: t.salp2, calp2: t.calp2)
    }
}
