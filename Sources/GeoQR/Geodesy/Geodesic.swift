import Foundation

// The inverse geodesic problem on the WGS84 ellipsoid: given two points, find the length of the
// shortest path between them and its azimuths at both ends.
//
// This is a port of the Inverse part of GeographicLib's Geodesic class (geodesic.c and
// geographiclib/geodesic.py, version 2.x) by Charles F. F. Karney, MIT/X11 licence,
// https://geographiclib.sourceforge.io/. The algorithm is described in
// C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55 (2013),
// https://doi.org/10.1007/s00190-012-0578-z. It is accurate to about 15 nanometres anywhere on
// the ellipsoid, including nearly antipodal points, where simpler methods (Vincenty) fail to
// converge.
//
// The port is specialised to WGS84 (an oblate ellipsoid, f > 0), so GeographicLib's branches for
// prolate ellipsoids (f < 0) and its outputs we don't need (reduced length and geodesic scale as
// results, area) are left out. Names follow GeographicLib so it can be checked line by line.

/// Result of the inverse problem: how far, and in which direction, one point is from another.
///
/// ```swift
/// let lisbon = Coordinate(latitude: 38.7223, longitude: -9.1393)
/// let porto = Coordinate(latitude: 41.1579, longitude: -8.6291)
/// let leg = Geodesic.inverse(from: lisbon, to: porto)
/// leg.distance        // 273924.653… metres
/// leg.initialBearing  // 8.9967… degrees (a touch east of north)
/// leg.finalBearing    // 9.3243… degrees
/// ```
public struct GeodesicSolution: Sendable, Equatable {
    /// Length of the shortest path on the WGS84 ellipsoid, in metres.
    ///
    /// ```swift
    /// Geodesic.inverse(from: lisbon, to: porto).distance   // 273924.653…
    /// ```
    public let distance: Double

    /// Direction to set off in, in degrees clockwise from true north, in 0..<360.
    ///
    /// ```swift
    /// Geodesic.inverse(from: porto, to: lisbon).initialBearing   // 189.32… (about south)
    /// ```
    public let initialBearing: Double

    /// Direction of travel on arrival, in degrees clockwise from true north, in 0..<360.
    /// On an ellipsoid it differs from the initial bearing unless the path is a meridian or
    /// the equator.
    ///
    /// ```swift
    /// Geodesic.inverse(from: lisbon, to: porto).finalBearing   // 9.3243…
    /// ```
    public let finalBearing: Double
}

/// Geodesics (shortest paths) on the WGS84 ellipsoid, the model GPS coordinates refer to.
///
/// ```swift
/// let here = Coordinate(latitude: 40.63030, longitude: -8.65750)
/// let cache = Coordinate(latitude: 40.63100, longitude: -8.65650)
/// let leg = Geodesic.inverse(from: here, to: cache)
/// print("\(Int(leg.distance.rounded())) m \(CompassPoint(bearing: leg.initialBearing).name)")
/// // 115 m north-east
/// ```
public enum Geodesic {
    /// Solves the WGS84 inverse problem: the distance between two points and the bearings of
    /// the shortest path at both ends. Accurate to well under a millimetre for any pair of
    /// points, including across the date line, over the poles and nearly antipodal ones.
    ///
    /// Latitudes outside -90...90 give NaN; longitudes may be any finite value.
    ///
    /// ```swift
    /// let a = Coordinate(latitude: 0, longitude: 0)
    /// let b = Coordinate(latitude: 0.5, longitude: 179.5)   // nearly antipodal
    /// let s = Geodesic.inverse(from: a, to: b)
    /// s.distance         // 19936288.578965…
    /// s.initialBearing   // 25.6718728682…
    /// ```
    public static func inverse(from: Coordinate, to: Coordinate) -> GeodesicSolution {
        let r = solveInverse(from.latitude, from.longitude, to.latitude, to.longitude)
        return GeodesicSolution(
            distance: r.s12,
            initialBearing: bearing(fromAzimuth: GeoMath.atan2d(r.salp1, r.calp1)),
            finalBearing: bearing(fromAzimuth: GeoMath.atan2d(r.salp2, r.calp2)))
    }

    /// Maps an azimuth in [-180, 180] to 0..<360 (and -0 to 0).
    static func bearing(fromAzimuth azi: Double) -> Double {
        let b = azi < 0 ? azi + 360 : azi + 0
        // -1e-15 + 360 rounds to 360, which is north again.
        return b >= 360 ? 0 : b
    }
}

extension Coordinate {
    /// Distance along the WGS84 ellipsoid to another point, in metres.
    ///
    /// ```swift
    /// let here = Coordinate(latitude: 40.63030, longitude: -8.65750)
    /// here.distance(to: Coordinate(latitude: 40.63100, longitude: -8.65650))   // 114.892…
    /// ```
    public func distance(to other: Coordinate) -> Double {
        Geodesic.inverse(from: self, to: other).distance
    }

    /// Direction to set off in towards another point, in degrees clockwise from true north,
    /// in 0..<360.
    ///
    /// ```swift
    /// let here = Coordinate(latitude: 40.63030, longitude: -8.65750)
    /// here.initialBearing(to: Coordinate(latitude: 40.63100, longitude: -8.65650))   // 47.423…
    /// ```
    public func initialBearing(to other: Coordinate) -> Double {
        Geodesic.inverse(from: self, to: other).initialBearing
    }
}

// MARK: - Ellipsoid and tolerances

/// The WGS84 ellipsoid and the derived quantities the algorithm uses.
enum WGS84 {
    static let a = 6_378_137.0              // equatorial radius, metres
    static let f = 1 / 298.257223563        // flattening
    static let f1 = 1 - f
    static let e2 = f * (2 - f)             // eccentricity squared
    static let ep2 = e2 / GeoMath.sq(f1)    // second eccentricity squared
    static let n = f / (2 - f)              // third flattening
    static let b = a * f1                   // polar semi-axis

    /// The sig12 below which a line counts as "really short" and the spherical solution with a
    /// mean-latitude radius is already exact to rounding (GeographicLib's etol2).
    static let etol2 = 0.1 * Tolerance.tol2 / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
}

private enum Tolerance {
    static let tiny = Double.leastNormalMagnitude.squareRoot()
    static let tol0 = Double.ulpOfOne
    static let tol1 = 200 * tol0
    static let tol2 = tol0.squareRoot()
    static let tolb = tol0
    static let xthresh = 1000 * tol2
    static let maxit1 = 20
    static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10   // 53 bits of mantissa
}

// MARK: - The inverse problem

/// The raw solution: distance in metres, azimuths as sine/cosine pairs (not normalised).
struct InverseSolution {
    var s12: Double
    var salp1: Double, calp1: Double
    var salp2: Double, calp2: Double
}

/// Reduced latitudes of the two (canonicalised) end points: sin β, cos β and the factor dn.
private struct EndPoints {
    var sbet1: Double, cbet1: Double, dn1: Double
    var sbet2: Double, cbet2: Double, dn2: Double
}

/// An azimuth as (sin α, cos α), with the great-circle arc sig12 it yields.
private struct Start {
    var sig12: Double            // >= 0 if the short-line solution is final, else -1
    var salp1: Double, calp1: Double
    var salp2: Double, calp2: Double
    var dnm: Double
}

/// What Lambda12 learns about the geodesic leaving point 1 with a trial azimuth.
private struct Trial {
    var lam12: Double            // longitude difference reached, minus the target
    var salp2: Double, calp2: Double
    var sig12: Double
    var ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
    var eps: Double
    var dlam12: Double           // derivative of lam12 with respect to alp1
}

extension Geodesic {
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

    // MARK: Lengths

    /// Which of GeographicLib's Lengths outputs a caller needs.
    private enum LengthsWanted { case distance, reducedLength, both }

    /// Distance s12 / b and reduced length m12 / b (NaN when not wanted) along a geodesic with
    /// parameter eps between auxiliary-sphere points sig1 and sig2 (Karney eqs. 15, 38).
    private static func lengths(eps: Double, sig12: Double,
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

    // MARK: InverseStart

    /// A starting azimuth for Newton's method, or the final answer for short lines (then
    /// sig12 >= 0). Nearly antipodal points get their start from the astroid problem.
    private static func inverseStart(_ p: EndPoints, lam12: Double, slam12: Double, clam12: Double) -> Start {
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

    // MARK: Lambda12

    /// Follows the geodesic leaving point 1 with azimuth alp1 to the latitude of point 2 and
    /// reports how far in longitude it got, relative to the target lam120 (the "hybrid problem").
    private static func lambda12(_ p: EndPoints, salp1: Double, calp1 calp1In: Double,
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
