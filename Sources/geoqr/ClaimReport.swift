import Foundation
import GeoQR

/// One judged code as `scan --json` and `watch --json` print it; keys are always present,
/// null when they do not apply.
struct ClaimReport: Encodable {
    let judgement: ClaimJudgement
    /// The picture, as given on the command line or found under a given folder (scan).
    var file: String?
    /// The frame number and its time in the stream (watch).
    var frame: Int?
    var frameTime: Double?

    enum Key: String, CodingKey {
        case file, frame, frameTime = "frame_time", verdict, cache, name, payload, distanceM = "distance_m",
             bearingDeg = "bearing_deg", direction, radiusM = "radius_m", allowedM = "allowed_m",
             locationSource = "location_source", lat, lon, accuracyM = "accuracy_m", photoTime = "photo_time",
             timeSource = "time_source", hunt, reason, message, line
    }

    func encode(to encoder: Encoder) throws {
        let j = judgement
        var c = encoder.container(keyedBy: Key.self)
        if let file { try c.encode(file, forKey: .file) }
        if let frame {
            try c.encode(frame, forKey: .frame)
            try c.encode(frameTime, forKey: .frameTime)
        }
        try c.encode(j.verdict.rawValue, forKey: .verdict)
        try c.encode(j.cacheID, forKey: .cache)
        try c.encode(j.cacheName, forKey: .name)
        try c.encode(j.payload, forKey: .payload)
        try c.encode(j.distance, forKey: .distanceM)
        try c.encode(j.bearing, forKey: .bearingDeg)
        try c.encode(j.direction?.rawValue, forKey: .direction)
        try c.encode(j.radius, forKey: .radiusM)
        try c.encode(j.allowed, forKey: .allowedM)
        try c.encode(j.location?.source.rawValue, forKey: .locationSource)
        try c.encode(j.location?.coordinate.latitude, forKey: .lat)
        try c.encode(j.location?.coordinate.longitude, forKey: .lon)
        try c.encode(j.location?.accuracy, forKey: .accuracyM)
        try c.encode(ISO8601DateFormatter().string(from: j.scanTime), forKey: .photoTime)
        try c.encode(j.scanTimeSource.rawValue, forKey: .timeSource)
        try c.encode(j.otherHuntID, forKey: .hunt)
        try c.encode(j.reason, forKey: .reason)
        try c.encode(j.sentence, forKey: .message)
        try c.encode(j.line, forKey: .line)
    }
}

/// A picture that could not be read, as `scan --json` prints it.
struct UnreadableReport: Encodable {
    let file: String
    let error: String
}
