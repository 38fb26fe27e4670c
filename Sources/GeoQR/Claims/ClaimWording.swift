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

    /// What a player is told, as a sentence, in English (``sentence(in:)`` for another
    /// language):
    ///
    /// ```text
    /// Salt pan view found: 12 m from the cache.
    /// Salt pan view is 240 m north-east: walk on.
    /// ```
    public var sentence: String { sentence(in: .en) }

    /// What a player is told, in `language`:
    ///
    /// ```swift
    /// j.sentence(in: .pt)   // "Salt pan view fica a 240 m, para nordeste: ainda falta caminhar."
    /// ```
    public func sentence(in language: Language) -> String { phrase.text(in: language) }

    /// The sentence as a ``Phrase``, for an answer written later in its reader's language.
    public var phrase: Phrase {
        let name = Self.name(cacheName ?? cacheID)
        switch verdict {
        case .claimable: return Phrase("claim.claimable", ["name": name, "distance": distancePhrase(distance)])
        case .tooFar:
            guard let direction else { return Phrase("claim.too-far-away", ["name": name, "distance": distancePhrase(distance)]) }
            return Phrase("claim.too-far", ["name": name, "distance": distancePhrase(distance), "direction": .phrase(direction.phrase)])
        case .forged: return Phrase("claim.forged")
        case .unknownHunt:
            guard let otherHuntID else { return Phrase("claim.unknown-hunt") }
            return Phrase("claim.unknown-hunt-named", ["hunt": .text(otherHuntID)])
        case .unknownCache: return Phrase("claim.unknown-cache", ["cache": .text(cacheID ?? "?")])
        case .noCode: return Phrase("claim.no-code")
        case .noLocation: return Phrase("claim.no-location", ["name": name])
        case .outsideTimeWindow: return Phrase("claim.outside-time-window", ["name": name, "window": .phrase(windowPhrase)])
        case .alreadyFound: return Phrase("claim.already-found", ["name": name])
        case .cacheDisabled: return Phrase("claim.cache-disabled", ["name": name])
        }
    }

    /// A cache's name in a sentence, or "This cache" when the code did not say.
    public static func name(_ name: String?) -> Phrase.Value {
        name.map(Phrase.Value.text) ?? .phrase(Phrase("claim.this-cache"))
    }

    /// As ``metres(_:)``, for a sentence: whole metres (kilometres when far), or to a tenth
    /// when rounding would hide which side of the allowance it is on.
    private func distancePhrase(_ value: Double?) -> Phrase.Value {
        guard let value, value.isFinite else { return .text("? m") }
        if let allowed, value.rounded() == allowed.rounded(), value != allowed { return .preciseDistance(value) }
        return .distance(value)
    }

    private var windowPhrase: Phrase {
        let times = ["start": windowStart, "end": windowEnd].compactMapValues { $0.map { Phrase.Value.text(Self.utc($0)) } }
        switch (windowStart, windowEnd) {
        case let (start?, _?) where scanTime < start: return Phrase("window.runs", times)
        case let (start?, nil) where scanTime < start: return Phrase("window.starts", times)
        case (_?, _?): return Phrase("window.ran", times)
        case (nil, _?): return Phrase("window.ended", times)
        default: return Phrase("window.none")
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
