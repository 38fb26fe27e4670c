import Foundation

/// The 16 compass points (N, NNE, NE, ENE, E, ESE, SE, SSE, S, SSW, SW, WSW, W, WNW, NW, NNW),
/// 22.5° apart, for telling a player which way to walk.
///
/// ```swift
/// let point = CompassPoint(bearing: 47.4)
/// point.rawValue   // "NE"
/// point.name       // "north-east"
/// print("walk 120 m \(point.name)")   // walk 120 m north-east
/// ```
public enum CompassPoint: String, CaseIterable, Sendable {
    case n = "N", nne = "NNE", ne = "NE", ene = "ENE"
    case e = "E", ese = "ESE", se = "SE", sse = "SSE"
    case s = "S", ssw = "SSW", sw = "SW", wsw = "WSW"
    case w = "W", wnw = "WNW", nw = "NW", nnw = "NNW"

    /// The compass point nearest to a bearing in degrees clockwise from north. Any finite
    /// bearing works: -45 is north-west and 720 is north. A bearing exactly halfway between
    /// two points (11.25, 33.75, …) goes to the clockwise one; NaN and infinities give north.
    ///
    /// ```swift
    /// CompassPoint(bearing: 0)      // .n
    /// CompassPoint(bearing: 22.4)   // .nne
    /// CompassPoint(bearing: 359)    // .n
    /// CompassPoint(bearing: -45)    // .nw
    /// ```
    public init(bearing: Double) {
        let sectors = Self.allCases.count   // 16, in clockwise order from north
        guard bearing.isFinite else {
            self = .n
            return
        }
        // Bring into [0, 360) first so the rounding below sees a small, exact value.
        var degrees = bearing.truncatingRemainder(dividingBy: 360)
        if degrees < 0 { degrees += 360 }
        let index = Int((degrees / (360 / Double(sectors))).rounded(.toNearestOrAwayFromZero)) % sectors
        self = Self.allCases[index]
    }

    /// The point written out in English words, lower case and hyphenated as in "walk 120 m
    /// north-east".
    ///
    /// ```swift
    /// CompassPoint.nne.name   // "north-north-east"
    /// CompassPoint.w.name     // "west"
    /// ```
    public var name: String { name(in: .en) }

    /// The point in words in `language`, from the ``Phrasebook`` (`compass.ne`).
    ///
    /// ```swift
    /// CompassPoint.ne.name(in: .pt)   // "nordeste"
    /// ```
    public func name(in language: Language) -> String { phrase.text(in: language) }

    /// The point as a phrase, for a sentence written later in its reader's language.
    public var phrase: Phrase { Phrase("compass." + rawValue.lowercased()) }
}
