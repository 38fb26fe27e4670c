import Foundation

/// Checks across caches that make a hunt odd but still playable.
enum HuntChecks {
    /// Caches whose claim circles overlap: a player standing in both could claim either from
    /// one spot, which is seldom what the game master meant. Courses' start codes may share a
    /// place (a start that several courses use): each starts only its own course.
    static func overlappingRadii(in hunt: Hunt, file: String) -> [HuntProblem] {
        let starts = Set(hunt.courses.compactMap(\.start))
        let indexed = hunt.caches.enumerated().sorted { $0.element.coordinate.latitude < $1.element.coordinate.latitude }
        let maxRadius = hunt.caches.map { hunt.radius(of: $0) }.max() ?? 0
        // A degree of latitude is at least 110.5 km anywhere, so this window never misses a pair.
        let window = 2 * maxRadius / 110_500
        var problems: [HuntProblem] = []
        for (k, a) in indexed.enumerated() {
            for b in indexed[(k + 1)...] {
                if b.element.coordinate.latitude - a.element.coordinate.latitude > window { break }
                if starts.contains(a.element.id), starts.contains(b.element.id) { continue }
                let (first, second) = a.offset < b.offset ? (a, b) : (b, a)
                let ra = hunt.radius(of: first.element), rb = hunt.radius(of: second.element)
                if clearlyApart(a.element.coordinate, b.element.coordinate, by: ra + rb) { continue }
                let d = first.element.coordinate.distance(to: second.element.coordinate)
                guard d < ra + rb else { continue }
                problems.append(HuntProblem(
                    file: file, path: "caches[\(second.offset)]",
                    message: "claim radius of \(second.element.id) overlaps \(first.element.id) (caches[\(first.offset)]): "
                        + "\(Int(d.rounded())) m apart, radii \(formatNumber(rb)) m + \(formatNumber(ra)) m",
                    severity: .warning))
            }
        }
        return problems.sorted { $0.path.count == $1.path.count ? $0.path < $1.path : $0.path.count < $1.path.count }
    }

    /// A cheap flat-earth test that rules out most pairs on the same latitude band before the
    /// ellipsoidal distance: a degree of longitude is at least 111,000 × cos(latitude) metres, and
    /// the factor 2 leaves a wide margin for the approximation. Not used near the poles.
    private static func clearlyApart(_ a: Coordinate, _ b: Coordinate, by metres: Double) -> Bool {
        let highest = max(abs(a.latitude), abs(b.latitude))
        guard highest < 80 else { return false }
        var dLon = abs(a.longitude - b.longitude)
        if dLon > 180 { dLon = 360 - dLon }
        return dLon * 111_000 * cos(highest * .pi / 180) > 2 * metres
    }
}
