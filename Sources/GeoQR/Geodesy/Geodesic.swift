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
//
// This file holds the public API. The solver is in the files beside it: WGS84.swift (the
// ellipsoid and tolerances), Geodesic+Inverse.swift (GenInverse), Geodesic+InverseStart.swift,
// Geodesic+Lambda12.swift and Geodesic+Lengths.swift; GeoMath.swift and GeodesicSeries.swift hold
// the angle arithmetic and the series expansions.

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
