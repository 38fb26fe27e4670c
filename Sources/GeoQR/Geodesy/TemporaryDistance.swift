import Foundation
// Spherical stand-in until the WGS84 (Karney) geodesic lands; removed then.
extension Coordinate {
    public func distance(to o: Coordinate) -> Double {
        let r = 6_371_008.8, p1 = latitude * .pi / 180, p2 = o.latitude * .pi / 180
        let dp = p2 - p1, dl = (o.longitude - longitude) * .pi / 180
        let a = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * asin(min(1, sqrt(a)))
    }
}
