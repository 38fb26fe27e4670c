import Foundation

extension ClaimJudgement {
    /// One line for a terminal, verdict code included, for the organiser at a desk:
    ///
    /// ```text
    /// A2 Salt pan view: claimable (12 m, radius 40 m)
    /// too-far: walk 240 m north-east (bearing 47°) to A2 Salt pan view, radius 40 m
    /// forged: code's signature does not match this hunt's secret (forged or altered)
    /// A2 Salt pan view: outside-time-window (scanned 2024-05-01 08:00 UTC; hunt runs from 2024-05-02 09:00 UTC)
    /// ```
    public var line: String {
        let code = verdict.rawValue
        switch verdict {
        case .claimable:
            return "\(cacheLabel): \(code) (\(metres(distance)), \(allowance))"
        case .tooFar:
            let bearingText = bearing.map { " (bearing \(Int($0.rounded()) % 360)°)" } ?? ""
            return "\(code): walk \(metres(distance)) \(direction?.name ?? "")\(bearingText) to \(cacheLabel), \(allowance)"
        case .forged, .unknownHunt, .unknownCache, .noCode:
            return "\(code): \(reason ?? "no GeoQR code found")"
        case .noLocation:
            return "\(cacheLabel): \(code) (nothing says where the code was scanned)"
        case .outsideTimeWindow:
            return "\(cacheLabel): \(code) (scanned \(Self.utc(scanTime)); \(windowText))"
        case .alreadyFound, .cacheDisabled:
            return "\(cacheLabel): \(code)"
        }
    }

    /// What a player is told, as a sentence:
    ///
    /// ```text
    /// Salt pan view found: 12 m from the cache.
    /// Salt pan view is 240 m north-east: walk on.
    /// ```
    public var sentence: String {
        let name = cacheName ?? cacheID ?? "This cache"
        switch verdict {
        case .claimable: return "\(name) found: \(metres(distance)) from the cache."
        case .tooFar: return "\(name) is \(metres(distance)) \(direction?.name ?? "away"): walk on."
        case .forged: return "This code is not one this hunt printed: it is forged or altered."
        case .unknownHunt: return "This code belongs to another hunt\(otherHuntID.map { " (\($0))" } ?? "")."
        case .unknownCache: return "This code is for cache \(cacheID ?? "?"), which the hunt no longer has."
        case .noCode: return "No GeoQR code here."
        case .noLocation: return "\(name)'s code is genuine, but nothing says where it was scanned."
        case .outsideTimeWindow: return "\(name) can't be claimed now: the \(windowText)."
        case .alreadyFound: return "You have already found \(name)."
        case .cacheDisabled: return "\(name) is closed by the game master for now."
        }
    }

    /// `radius 40 m`, or `radius 40 m + 15 m accuracy` when the location's accuracy counted.
    private var allowance: String {
        guard let radius else { return "" }
        let extra = (allowed ?? radius) - radius
        return extra > 0 ? "radius \(metres(radius)) + \(metres(extra)) accuracy" : "radius \(metres(radius))"
    }

    private var windowText: String {
        switch (windowStart, windowEnd) {
        case let (start?, end?) where scanTime < start: "hunt runs from \(Self.utc(start)) to \(Self.utc(end))"
        case let (start?, nil) where scanTime < start: "hunt starts at \(Self.utc(start))"
        case let (start?, end?): "hunt ran from \(Self.utc(start)) to \(Self.utc(end))"
        case let (nil, end?): "hunt ended at \(Self.utc(end))"
        default: "hunt has no time window"
        }
    }

    /// Whole metres, unless rounding would hide which side of the allowance a distance is on
    /// (100.4 m against 100 m reads "100.4 m", not "100 m").
    private func metres(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "? m" }
        let whole = value.rounded()
        if let allowed, whole == allowed.rounded(), value != allowed {
            return String(format: "%.1f m", value)
        }
        return "\(Int(whole)) m"
    }

    /// `2024-05-02 09:00 UTC`.
    static func utc(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d UTC", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0)
    }
}
