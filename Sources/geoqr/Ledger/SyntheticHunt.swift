import GeoQR

/// A made-up hunt for the benchmark and the load generator: `count` caches on a grid around
/// Aveiro, 20 m apart, no trails.
enum SyntheticHunt {
    static func make(caches count: Int) -> Hunt {
        let caches = (0..<count).map { i in
            Cache(id: "S\(i)", name: "Site \(i)",
                  coordinate: Coordinate(latitude: 40.63 + Double(i / 100) * 0.0002,
                                         longitude: -8.65 + Double(i % 100) * 0.0002),
                  message: "You found site \(i)")
        }
        return Hunt(id: "BENCH", name: "Benchmark", caches: caches)
    }
}
