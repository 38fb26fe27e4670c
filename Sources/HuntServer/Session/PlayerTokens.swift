import Crypto
import Foundation
import HuntFiles

/// Sign-in sessions: a random 128-bit token per join or sign-in, given to the browser once and
/// kept here only as its SHA-256, so a copy of the data directory signs nobody in. Kept in
/// `DATA/server/HUNT.sessions` (0600) so a restart does not sign every phone out.
///
/// ```swift
/// let tokens = PlayerTokens(file: nil)
/// let token = await tokens.issue(for: "P3")     // 32 hex characters, shown once
/// await tokens.player(for: token)              // "P3"
/// ```
public actor PlayerTokens {
    private var players: [String: String] = [:]   // SHA-256 hex of the token → player id
    private let file: String?

    /// Sessions kept in `file` (nil: in memory only, for tests).
    public init(file: String?) {
        self.file = file
        if let file, let data = try? FileAccess.read(file, limit: 64 << 20),
           let stored = try? JSONDecoder().decode([String: String].self, from: data) {
            players = stored
        }
    }

    /// A fresh token for a player.
    public func issue(for player: String) -> String {
        let token = Self.randomToken()
        players[Self.digest(token)] = player
        save()
        return token
    }

    /// The player a token signs in, or nil.
    public func player(for token: String) -> String? {
        guard token.count == 32, token.allSatisfy(\.isHexDigit) else { return nil }
        return players[Self.digest(token)]
    }

    /// The key a session is known by in memory (its digest), for per-session state.
    nonisolated static func sessionKey(_ token: String) -> String { digest(token) }

    static func randomToken() -> String {
        SymmetricKey(size: .bits128).withUnsafeBytes { $0.map { String(format: "%02x", $0) }.joined() }
    }

    static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private func save() {
        guard let file, let data = try? JSONEncoder().encode(players) else { return }
        try? FileAccess.write(data, to: file, mode: 0o600)
    }
}
