import Foundation
import GeoQR

/// One of a player's finds, as the exports need it: which cache, where, when, and the log text.
/// The game ledger will produce these; until then callers build them directly.
///
/// ```swift
/// let find = FoundLog(cacheID: "GC1BKP3", cacheName: "Old mill", coordinate: mill,
///                     foundAt: Date(timeIntervalSince1970: 1_795_256_100), text: "TFTC!")
/// let notes = FieldNotes.data([find])
/// ```
public struct FoundLog: Sendable, Equatable {
    /// The cache's code (its hunt id, or the geocaching code it was imported from).
    public var cacheID: String
    public var cacheName: String
    public var coordinate: Coordinate
    public var foundAt: Date
    public var text: String

    public init(cacheID: String, cacheName: String, coordinate: Coordinate, foundAt: Date, text: String) {
        self.cacheID = cacheID
        self.cacheName = cacheName
        self.coordinate = coordinate
        self.foundAt = foundAt
        self.text = text
    }
}

/// Times as the formats write them, always in UTC.
enum InterchangeTime {
    /// `2026-11-21T10:15:00Z` (GPX, GeoJSON).
    static func iso(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    /// `2026-11-21T10:15Z` (field notes: minutes, no seconds).
    static func minutes(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02dT%02d:%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!)
    }
}
