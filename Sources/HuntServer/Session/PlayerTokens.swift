import Crypto
import Foundation
import GeoQR
import HuntFiles

/// Sign-in sessions: a random 128-bit token per join or sign-in, given to the browser once and
/// kept here only as its SHA-256, so a copy of the data directory signs nobody in. Kept in
/// `DATA/server/HUNT.sessions` (0600) so a restart does not sign every phone out.
///
/// The file is a log, one `digest player` line per session, appended as each is issued, and a
/// `- player` line when a PIN reset ends all of a player's sessions: a
/// join costs one short write however many players there are, and a kill midway leaves at
/// most a torn last line, which loading skips. (Earlier versions kept one JSON object; it is
/// still read, and rewritten as a log.)
///
/// ```swift
/// let tokens = PlayerTokens(file: nil)
/// let token = try await tokens.issue(for: "P3")     // 32 hex characters, shown once
/// await tokens.player(for: token)                  // "P3"
/// ```
public actor PlayerTokens {
    private var players: [String: String] = [:]   // SHA-256 hex of the token → player id
    private let file: String?
    private var log: Int32 = -1

    /// Sessions kept in `file` (nil: in memory only, for tests).
    public init(file: String?) {
        self.file = file
        guard let file, let data = try? FileAccess.read(file, limit: 256 << 20) else { return }
        if data.first == UInt8(ascii: "{") {
            if let stored = try? JSONDecoder().decode([String: String].self, from: data) { players = stored }
            let lines = players.map { "\($0.key) \($0.value)\n" }.joined()
            try? FileAccess.write(Data(lines.utf8), to: file, mode: 0o600)
            return
        }
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let parts = line.split(separator: UInt8(ascii: " "))
            guard parts.count == 2 else { continue }   // a torn last line
            let player = String(decoding: parts[1], as: UTF8.self)
            if parts[0].elementsEqual(Self.revoked.utf8) {
                players = players.filter { $0.value != player }
            } else if parts[0].count == 64 {
                players[String(decoding: parts[0], as: UTF8.self)] = player
            }
        }
    }

    deinit {
        if log >= 0 { close(log) }
    }

    /// A fresh token for a player; throws when it cannot be kept (a full disk), so no phone
    /// holds a token that a restart would forget.
    public func issue(for player: String) throws -> String {
        let token = Self.randomToken()
        let digest = Self.digest(token)
        try append("\(digest) \(player)\n")
        players[digest] = player
        return token
    }

    /// Ends every session of a player (their PIN was reset): a `- P3` line in the log, so a
    /// restart does not bring them back.
    /// The sessions end here at once, before the line is written: a full disk can keep the line
    /// from the log (the caller hears of it), never the sessions alive on this server.
    public func revoke(player: String) throws {
        players = players.filter { $0.value != player }
        try append("\(Self.revoked) \(player)\n")
    }

    /// What a revocation line starts with, where a digest would be.
    static let revoked = "-"

    /// The player a token signs in, or nil.
    public func player(for token: String) -> String? {
        guard token.count == 32, token.allSatisfy(\.isHexDigit) else { return nil }
        return players[Self.digest(token)]
    }

    /// The key a session is known by in memory (its digest), for per-session state.
    nonisolated static func sessionKey(_ token: String) -> String { digest(token) }

    static func randomToken() -> String {
        SymmetricKey(size: .bits128).withUnsafeBytes { $0.hex }
    }

    static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hex
    }

    /// One line, in one write(2) on an O_APPEND descriptor: whole or (on a full disk) refused.
    private func append(_ line: String) throws(FileError) {
        guard let file else { return }
        if log < 0 {
            log = open(file, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
            guard log >= 0 else { throw .notWritable(file, String(cString: strerror(errno))) }
            // A torn last line (a full disk, a kill) must not swallow the first new one.
            var last: UInt8 = 0
            let size = lseek(log, 0, SEEK_END)
            if size > 0, pread(log, &last, 1, size - 1) == 1, last != UInt8(ascii: "\n") {
                _ = Foundation.write(log, "\n", 1)
            }
        }
        let bytes = Array(line.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(log, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            let why = written < 0 ? String(cString: strerror(errno)) : "short write"
            // A short write leaves a torn line; the next line must start on a line of its own.
            if written > 0 { _ = Foundation.write(log, "\n", 1) }
            throw .notWritable(file, why)
        }
    }
}
