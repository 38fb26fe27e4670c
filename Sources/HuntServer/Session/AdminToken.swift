import Crypto
import Foundation
import HuntFiles
import Play

/// The game master's token: 128 random bits in `DATA/server/HUNT.admin` (0600), made on the
/// first `geoqr serve` and reused, so the admin link printed at start keeps working until the
/// game master rotates it (`geoqr gm rotate-admin-token`: ``rotate(directory:hunt:)``).
///
/// A running server learns of a rotation by itself: a token loaded from the file reads the file
/// again when it is asked to match and its last read is older than ``refreshInterval`` (a 33-byte
/// read, once every two seconds at most, whatever the requests), so the old token stops working
/// within seconds and no flood of wrong tokens makes the server read more often.
///
/// ```swift
/// let admin = try AdminToken.load(directory: data.path, hunt: "DEMO")
/// admin.matches(headerToken)   // constant time
/// let fresh = try AdminToken.rotate(directory: data.path, hunt: "DEMO")   // the old one stops working
/// ```
public final class AdminToken: @unchecked Sendable {   // `current` and `readAt` only under `lock`
    /// How often, at most, a token loaded from its file reads the file again.
    public static let refreshInterval: Duration = .seconds(2)

    private let file: String?
    private let lock = NSLock()
    private var current: String
    private var readAt: ContinuousClock.Instant

    /// The token itself: printed in the admin link, never sent in an API response.
    public var value: String {
        refreshIfDue()
        return lock.withLock { current }
    }

    /// A token that never changes (tests, a server without a data folder).
    public init(value: String) {
        self.file = nil
        self.current = value
        self.readAt = .now
    }

    private init(file: String, value: String) {
        self.file = file
        self.current = value
        self.readAt = .now
    }

    /// Where a hunt's admin token is kept in a data directory.
    public static func file(directory: String, hunt: String) -> String {
        "\(directory)/server/\(hunt.uppercased()).admin"
    }

    /// The hunt's admin token from the data directory, made on first use.
    public static func load(directory: String, hunt: String) throws -> AdminToken {
        let file = try prepare(directory: directory, hunt: hunt)
        if let text = read(file) { return AdminToken(file: file, value: text) }
        let fresh = SignIns.newToken()
        try FileAccess.write(Data((fresh + "\n").utf8), to: file, mode: 0o600)
        return AdminToken(file: file, value: fresh)
    }

    /// Makes the hunt a new admin token and writes it in place of the old one (a new file
    /// renamed over it: a server reading it sees one token or the other, never half). Every
    /// server reading this data directory stops taking the old token within
    /// ``refreshInterval``.
    public static func rotate(directory: String, hunt: String) throws -> AdminToken {
        let file = try prepare(directory: directory, hunt: hunt)
        let fresh = SignIns.newToken()
        try FileAccess.write(Data((fresh + "\n").utf8), to: file, mode: 0o600)
        return AdminToken(file: file, value: fresh)
    }

    /// The board's token: made from this one (HMAC-SHA256), so it changes when the admin token
    /// is rotated, and says nothing about it. It opens `/board.html` and nothing else.
    public var boardToken: String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("geoqr board v1".utf8), using: SymmetricKey(data: Data(value.utf8)))
        return Data(mac).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// True when `candidate` is the board's token (compared as digests, as ``matches(_:)``).
    public func matchesBoard(_ candidate: String) -> Bool {
        SignIns.digest(candidate) == SignIns.digest(boardToken)
    }

    /// True when `candidate` is this token; compares digests so timing says nothing.
    public func matches(_ candidate: String) -> Bool {
        SignIns.digest(candidate) == SignIns.digest(value)
    }

    private func refreshIfDue() {
        guard let file else { return }
        let now = ContinuousClock.now
        let due = lock.withLock {
            guard now - readAt >= Self.refreshInterval else { return false }
            readAt = now
            return true
        }
        // A file gone or unreadable keeps the token in force: deleting it is no way to lock the
        // game master out of a running hunt.
        guard due, let text = Self.read(file) else { return }
        lock.withLock { current = text }
    }

    private static func prepare(directory: String, hunt: String) throws -> String {
        try FileManager.default.createDirectory(atPath: directory + "/server", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return file(directory: directory, hunt: hunt)
    }

    private static func read(_ file: String) -> String? {
        guard let data = try? FileAccess.read(file, limit: 1024),
              let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
              text.count == 32, text.allSatisfy(\.isHexDigit) else { return nil }
        return text
    }
}
