import Crypto
import Foundation
import HuntFiles
import Play

/// The game master's token: 128 random bits in `DATA/server/HUNT.admin` (0600), made on the
/// first `geoqr serve` and reused, so the admin link printed at start keeps working.
///
/// ```swift
/// let admin = try AdminToken.load(directory: data.path, hunt: "DEMO")
/// admin.matches(headerToken)   // constant time
/// ```
public struct AdminToken: Sendable {
    /// The token itself: printed in the admin link, never sent in an API response.
    public let value: String

    public init(value: String) {
        self.value = value
    }

    /// The hunt's admin token from the data directory, made on first use.
    public static func load(directory: String, hunt: String) throws -> AdminToken {
        let folder = directory + "/server"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let file = "\(folder)/\(hunt.uppercased()).admin"
        if let data = try? FileAccess.read(file, limit: 1024),
           let text = String(data: data, encoding: .utf8)?.trimmingCharacters(in: .whitespacesAndNewlines),
           text.count == 32, text.allSatisfy(\.isHexDigit) {
            return AdminToken(value: text)
        }
        let fresh = SignIns.newToken()
        try FileAccess.write(Data((fresh + "\n").utf8), to: file, mode: 0o600)
        return AdminToken(value: fresh)
    }

    /// True when `candidate` is this token; compares digests so timing says nothing.
    public func matches(_ candidate: String) -> Bool {
        SignIns.digest(candidate) == SignIns.digest(value)
    }
}
