import Foundation
import Testing
@testable import GeoQR

/// One row of Fixtures/geodesic-reference.csv, produced by GeographicLib's GeodSolve
/// (see Fixtures/make-geodesic-reference.sh).
struct ReferenceGeodesic: CustomStringConvertible {
    let name: String
    let from: Coordinate
    let to: Coordinate
    let distance: Double   // metres
    let azi1: Double       // degrees, GeodSolve's [-180, 180]
    let azi2: Double

    var description: String { name }

    enum LoadError: Error { case missingFixture, badRow(String) }

    static func loadAll() throws -> [ReferenceGeodesic] {
        guard let url = Bundle.module.url(forResource: "geodesic-reference", withExtension: "csv",
                                          subdirectory: "Fixtures")
        else { throw LoadError.missingFixture }
        return try String(contentsOf: url, encoding: .utf8)
            .split(whereSeparator: \.isNewline)
            .filter { !$0.hasPrefix("#") && !$0.hasPrefix("name,") }
            .map { try ReferenceGeodesic(row: $0) }
    }

    init(row: Substring) throws {
        let fields = row.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = fields.dropFirst().compactMap { Double($0) }
        guard fields.count == 8, numbers.count == 7 else { throw LoadError.badRow(String(row)) }
        name = String(fields[0])
        from = Coordinate(latitude: numbers[0], longitude: numbers[1])
        to = Coordinate(latitude: numbers[2], longitude: numbers[3])
        distance = numbers[4]
        azi1 = numbers[5]
        azi2 = numbers[6]
    }
}

/// Smallest angle between two bearings, in degrees (so 359.9999999 vs 0 is 1e-7, not 360).
func bearingDifference(_ a: Double, _ b: Double) -> Double {
    abs((a - b).remainder(dividingBy: 360))
}

@Suite("Geodesy")
struct GeodesyTests {
    static let distanceTolerance = 0.001   // metres
    static let bearingTolerance = 1e-6     // degrees

    @Test("The reference table loads and covers enough cases")
    func referenceTableLoads() throws {
        let cases = try ReferenceGeodesic.loadAll()
        #expect(cases.count >= 60)
        #expect(Set(cases.map(\.name)).count == cases.count, "case names are unique")
    }

    @Test("Every reference case matches GeodSolve to 1 mm and 1e-6°")
    func matchesGeodSolve() throws {
        var worstDistance = 0.0, worstBearing = 0.0
        for ref in try ReferenceGeodesic.loadAll() {
            let solution = Geodesic.inverse(from: ref.from, to: ref.to)
            let distanceError = abs(solution.distance - ref.distance)
            #expect(distanceError <= Self.distanceTolerance,
                    "\(ref.name): distance \(solution.distance) m, GeodSolve \(ref.distance) m")
            worstDistance = max(worstDistance, distanceError)

            // Bearings are ill-defined for (near-)coincident points and at a pole itself, where
            // every direction is south (or north); GeographicLib then returns a value that
            // depends on the longitude convention, so there is nothing meaningful to compare.
            // The GeodSolve output has 0.1 nm resolution, so below 1 mm the reference azimuth
            // is already mostly rounding.
            let meaningful = ref.distance >= 1e-3
            if meaningful && abs(ref.from.latitude) != 90 {
                let error = bearingDifference(solution.initialBearing, ref.azi1)
                #expect(error <= Self.bearingTolerance,
                        "\(ref.name): initial bearing \(solution.initialBearing)°, GeodSolve \(ref.azi1)°")
                worstBearing = max(worstBearing, error)
            }
            if meaningful && abs(ref.to.latitude) != 90 {
                let error = bearingDifference(solution.finalBearing, ref.azi2)
                #expect(error <= Self.bearingTolerance,
                        "\(ref.name): final bearing \(solution.finalBearing)°, GeodSolve \(ref.azi2)°")
                worstBearing = max(worstBearing, error)
            }
        }
        print("Geodesic vs GeodSolve: max distance error \(worstDistance) m, max bearing error \(worstBearing)°")
    }

    @Test("Bearings are always in 0..<360")
    func bearingsInRange() throws {
        for ref in try ReferenceGeodesic.loadAll() {
            let s = Geodesic.inverse(from: ref.from, to: ref.to)
            #expect((0..<360).contains(s.initialBearing), "\(ref.name): \(s.initialBearing)")
            #expect((0..<360).contains(s.finalBearing), "\(ref.name): \(s.finalBearing)")
        }
    }

    @Test("Distance is symmetric")
    func symmetry() throws {
        for ref in try ReferenceGeodesic.loadAll() {
            let there = ref.from.distance(to: ref.to)
            let back = ref.to.distance(to: ref.from)
            #expect(abs(there - back) <= Self.distanceTolerance, "\(ref.name): \(there) vs \(back)")
        }
    }

    @Test("Identical points are zero metres apart", arguments: [
        Coordinate(latitude: 40.6303, longitude: -8.6575),
        Coordinate(latitude: 0, longitude: 0),
        Coordinate(latitude: 90, longitude: 0),
        Coordinate(latitude: -90, longitude: 123),
        Coordinate(latitude: -33.8688, longitude: 180),
    ])
    func zeroDistance(point: Coordinate) {
        #expect(point.distance(to: point) == 0)
    }

    @Test("The same point written with longitude 180 and -180 is zero metres away")
    func dateLineAliases() {
        let east = Coordinate(latitude: 12.5, longitude: 180)
        let west = Coordinate(latitude: 12.5, longitude: -180)
        #expect(east.distance(to: west) == 0)
    }

    @Test("Convenience accessors agree with Geodesic.inverse")
    func convenienceAccessors() {
        let here = Coordinate(latitude: 40.63030, longitude: -8.65750)
        let cache = Coordinate(latitude: 40.63100, longitude: -8.65650)
        let s = Geodesic.inverse(from: here, to: cache)
        #expect(here.distance(to: cache) == s.distance)
        #expect(here.initialBearing(to: cache) == s.initialBearing)
        #expect(abs(s.distance - 114.892) < 0.001)   // GeodSolve -i -p 3
    }

    @Test("Nearest compass point", arguments: [
        (0.0, CompassPoint.n), (11.2, .n), (11.3, .nne), (22.4, .nne), (45, .ne),
        (90, .e), (180, .s), (247.5, .wsw), (359, .n), (-45, .nw), (720, .n), (-0.0001, .n),
        (348.7, .nnw),   // 11.2° past NNW, 11.3° short of N
        (1000, .w),      // 2 · 360 + 280: nearer W (270) than WNW (292.5)
    ])
    func compassPoint(bearing: Double, expected: CompassPoint) {
        #expect(CompassPoint(bearing: bearing) == expected)
    }

    @Test("Compass point names read as words")
    func compassPointNames() {
        #expect(CompassPoint.n.name == "north")
        #expect(CompassPoint.nne.name == "north-north-east")
        #expect(CompassPoint.ne.name == "north-east")
        #expect(CompassPoint.wsw.name == "west-south-west")
        #expect(CompassPoint.allCases.count == 16)
    }
}

@Suite("Geodesy with bad input")
struct GeodesyBadInputTests {
    // Coordinates are range-checked where they are read (Coordinate.checked); the geodesic
    // itself must still not trap on bad values, only return NaN, as GeographicLib does.
    @Test("Out-of-range latitudes and non-finite values give NaN, not a crash", arguments: [
        (91.0, 0.0), (-90.5, 10.0), (Double.nan, 0.0), (0.0, Double.nan), (0.0, Double.infinity),
    ])
    func badInput(latitude: Double, longitude: Double) {
        let bad = Coordinate(latitude: latitude, longitude: longitude)
        let good = Coordinate(latitude: 40.6303, longitude: -8.6575)
        let s = Geodesic.inverse(from: good, to: bad)
        #expect(s.distance.isNaN)
        #expect(Geodesic.inverse(from: bad, to: good).distance.isNaN)
        #expect(CompassPoint(bearing: s.initialBearing) == .n)
    }
}
