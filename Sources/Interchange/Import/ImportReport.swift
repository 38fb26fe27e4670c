/// What an import did: counts, and every waypoint it skipped or changed, by code and place.
///
/// ```swift
/// print(report.summaryLines(limit: 3).joined(separator: "\n"))
/// // imported 498 caches, 212 additional waypoints attached
/// // skipped 2: GC1ARCH (pq.gpx:812) archived; GC2DUP1 (pq.gpx:940) duplicate code (first at pq.gpx:77)
/// ```
public struct ImportReport: Sendable, Equatable, Codable {
    /// One waypoint that was skipped or changed, and why.
    public struct Item: Sendable, Equatable, Codable {
        public var code: String
        /// `FILE:LINE` of its `<wpt>`.
        public var location: String
        public var reason: String

        public var description: String { "\(code.isEmpty ? "(no code)" : code) (\(location)) \(reason)" }
    }

    public var caches = 0
    public var waypointsAttached = 0
    public var trackables = 0
    public var skipped: [Item] = []
    public var changed: [Item] = []
    /// About the files rather than a waypoint: unknown namespaces, tracks passed over.
    public var notes: [String] = []

    public init() {}

    /// Counts on the first line, then the first `limit` skipped and changed items, then notes.
    public func summaryLines(limit: Int = 5) -> [String] {
        var lines = ["imported \(caches) caches, \(waypointsAttached) additional waypoints attached, \(trackables) trackables"]
        for (label, items) in [("skipped", skipped), ("changed", changed)] where !items.isEmpty {
            let shown = items.prefix(limit).map(\.description).joined(separator: "; ")
            let more = items.count > limit ? "; … and \(items.count - limit) more" : ""
            lines.append("\(label) \(items.count): \(shown)\(more)")
        }
        return lines + notes
    }
}
