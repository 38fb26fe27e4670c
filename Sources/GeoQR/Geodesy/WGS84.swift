import Foundation

// The WGS84 ellipsoid and the floating-point tolerances the geodesic solver works to.
//
// Part of the port of GeographicLib's geodesic inverse problem; see Geodesic.swift for its source
// and licence.

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
    static let etol2 = 0.1 * Geodesic.Tolerance.tol2 / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
}

extension Geodesic {
    /// Floating-point tolerances and iteration limits of the solver, named as in GeographicLib.
    enum Tolerance {
        static let tiny = Double.leastNormalMagnitude.squareRoot()
        static let tol0 = Double.ulpOfOne
        static let tol1 = 200 * tol0
        static let tol2 = tol0.squareRoot()
        static let tolb = tol0
        static let xthresh = 1000 * tol2
        static let maxit1 = 20
        static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10   // 53 bits of mantissa
    }
}
