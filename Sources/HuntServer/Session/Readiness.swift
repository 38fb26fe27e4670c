import Foundation

/// What each player's phone said when they checked it at the briefing (`/checkin.html`): a
/// secure page, the camera, the location and its accuracy, offline play, the screen kept
/// awake. Kept in memory for the control room: it is about a phone on one morning, not the
/// hunt's record.
///
/// ```swift
/// let readiness = Readiness()
/// await readiness.report(PhoneCheck(player: "P3", secure: true, camera: true, …, at: now))
/// await readiness.all()   // [PhoneCheck(player: "P3", …)]
/// ```
actor Readiness {
    private var last: [String: PhoneCheck] = [:]

    func report(_ check: PhoneCheck) {
        last[check.player] = check
    }

    /// Every player's last check, oldest first.
    func all() -> [PhoneCheck] {
        last.values.sorted { $0.at < $1.at }
    }
}

/// One phone's check: each part passed or not, the accuracy its location reached.
struct PhoneCheck: Codable, Sendable, Equatable {
    var player: String
    /// The page is a secure context (HTTPS with a certificate the phone trusts, or localhost).
    var secure: Bool
    /// A live frame came from the rear camera.
    var camera: Bool
    /// The location reached `accuracyM` (nil when none came).
    var location: Bool
    var accuracyM: Double?
    /// A service worker holds the app and storage is there: claims survive a dead network.
    var offline: Bool
    /// The screen can be kept awake while walking.
    var wakeLock: Bool
    var at: Date

    /// Every part passed.
    var ready: Bool { secure && camera && location && offline && wakeLock }
}
