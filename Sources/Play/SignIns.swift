import Crypto
import Foundation
import GeoQR
import HuntFiles
import Ledger

/// Sign-in sessions: a random 128-bit token per join or sign-in, given to the browser once and
/// kept in the store only as its SHA-256 (the private `sessions` table), so a copy of the
/// database or the data directory signs nobody in, and any server on the store knows every
/// session: a player who joined on one server is answered by the next.
///
/// A session ends when the player signs out (``end(_:)``, ``endAll(of:)``), when the game
/// master resets their PIN, or after ``lifetime`` without a request: a hunt day and its grace
/// are covered, a phone lost yesterday is not signed in tomorrow.
///
/// ```swift
/// let signIns = game.signIns
/// let token = try await signIns.issue(for: "P3", at: .now)   // 32 hex characters, shown once
/// try await signIns.player(for: token)                       // "P3"
/// try await signIns.end(token)                               // signed out
/// ```
public struct SignIns: Sendable {
    public let store: any GameStore
    public let hunt: String
    /// The present moment; tests pass a fixed one.
    public let clock: @Sendable () -> Date

    /// How long a session lasts after its last request (sliding): 24 hours, longer than a
    /// hunt day plus its offline grace, so nobody is signed out mid-hunt.
    public static let lifetime: TimeInterval = 24 * 60 * 60

    public init(store: any GameStore, hunt: String, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.hunt = hunt
        self.clock = clock
    }

    /// A fresh token for a player, answered only once the store keeps its digest: no phone
    /// holds a token that another server, or a restart, would not know.
    public func issue(for player: String, at time: Date) async throws -> String {
        let token = Self.newToken()
        try await store.keepSession(hunt: hunt, player: player, tokenSHA256: Self.digest(token), at: time)
        return token
    }

    /// The player a token signs in, or nil: an unknown, ended or expired token (unused for
    /// ``lifetime``). Compared by digest: the token itself is kept nowhere.
    public func player(for token: String) async throws -> String? {
        guard Self.isToken(token) else { return nil }
        let now = clock()
        return try await store.sessionPlayer(hunt: hunt, tokenSHA256: Self.digest(token),
                                             usedSince: now.addingTimeInterval(-Self.lifetime), at: now)
    }

    /// Ends one session: its token signs nobody in from now on, on every server.
    public func end(_ token: String) async throws {
        guard Self.isToken(token) else { return }
        try await store.endSession(hunt: hunt, tokenSHA256: Self.digest(token))
    }

    static func isToken(_ token: String) -> Bool { token.count == 32 && token.allSatisfy(\.isHexDigit) }

    /// Ends every session of a player.
    public func endAll(of player: String) async throws {
        try await store.endSessions(hunt: hunt, player: player)
    }

    /// The key a session is known by where the server keeps per-session state: its digest.
    public static func sessionKey(_ token: String) -> String { digest(token) }

    /// 128 random bits in 32 hex characters: a player's token, or the game master's.
    public static func newToken() -> String {
        SymmetricKey(size: .bits128).withUnsafeBytes { $0.hex }
    }

    /// A token's SHA-256 in hex: what is kept and compared in its place.
    public static func digest(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).hex
    }

    /// Brings the sessions an earlier server kept in `DATA/server/HUNT.sessions` into the
    /// store, so an upgrade signs no phone out, then renames the file `….imported`. The file
    /// was a log of `digest player` lines and `- player` lines (that player's sessions ended);
    /// older ones were one JSON object of digest → player. A torn last line is skipped.
    ///
    /// - returns: how many sessions were brought in (0 when there was no file).
    @discardableResult
    public func importSessionsFile(_ file: String, at time: Date) async throws -> Int {
        guard FileManager.default.fileExists(atPath: file) else { return 0 }
        let data = try FileAccess.read(file, limit: 256 << 20)
        var players: [String: String] = [:]
        if data.first == UInt8(ascii: "{") {
            players = (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
        } else {
            for line in data.split(separator: UInt8(ascii: "\n")) {
                let parts = line.split(separator: UInt8(ascii: " ")).map { String(decoding: $0, as: UTF8.self) }
                guard parts.count == 2 else { continue }
                if parts[0] == "-" {
                    players = players.filter { $0.value != parts[1] }
                } else if parts[0].count == 64, parts[0].allSatisfy(\.isHexDigit) {
                    players[parts[0]] = parts[1]
                }
            }
        }
        for (digest, player) in players.sorted(by: { $0.key < $1.key }) {
            try await store.keepSession(hunt: hunt, player: player, tokenSHA256: digest, at: time)
        }
        try? FileManager.default.removeItem(atPath: file + ".imported")   // an earlier import's
        try FileManager.default.moveItem(atPath: file, toPath: file + ".imported")
        return players.count
    }
}

extension Game {
    /// This hunt's sign-in sessions, kept in its store.
    public var signIns: SignIns { SignIns(store: store, hunt: huntID, clock: clock) }
}
