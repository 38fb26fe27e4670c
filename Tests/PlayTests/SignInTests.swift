import Foundation
import GeoQR
import Ledger
import Play
import Testing

/// Sign-in sessions through the application layer: kept in the store by digest only, known to
/// every process on the store, and brought in from the sessions file earlier servers kept.
@Suite("Sign-in sessions")
struct SignInTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sign-in-tests-\(UUID().uuidString)").path
    let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    @Test func aTokenIsKeptOnlyAsItsDigestAndKnownToAnotherProcess() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try SQLiteGameStore(directory: folder, configuration: .init(pinCost: 4))
        let token = try await SignIns(store: store, hunt: "PLAY").issue(for: "P7", at: t0)
        #expect(token.count == 32 && token.allSatisfy(\.isHexDigit))
        let restarted = SignIns(store: try SQLiteGameStore(directory: folder, configuration: .init(pinCost: 4)), hunt: "play",
                                clock: { [t0] in t0 })
        #expect(try await restarted.player(for: token) == "P7")
        #expect(try await restarted.player(for: String(token.dropLast()) + (token.last == "0" ? "1" : "0")) == nil)
        #expect(try await restarted.player(for: "not a token") == nil)
        // Neither the database nor its write-ahead log holds the token; they hold its digest.
        var bytes = Data()
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            bytes += try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))
        }
        #expect(bytes.range(of: Data(token.utf8)) == nil)
        #expect(bytes.range(of: Data(SignIns.sessionKey(token).utf8)) != nil)
    }

    /// The log an earlier server kept (`digest player` lines, `- player` ending a player's
    /// sessions, perhaps a torn last line) comes into the store once, and the file is renamed.
    @Test func sessionsFromTheEarlierFileComeIntoTheStore() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try SQLiteGameStore(directory: folder, configuration: .init(pinCost: 4))
        let (ada, bo, cy) = ("0123456789abcdef0123456789abcdef", "11112222333344445555666677778888", "99990000aaaabbbbccccddddeeeeffff")
        let file = folder + "/PLAY.sessions"
        let log = "\(SignIns.sessionKey(ada)) P1\n\(SignIns.sessionKey(bo)) P2\n- P2\n\(SignIns.sessionKey(cy)) P3\n3f2a"
        try Data(log.utf8).write(to: URL(fileURLWithPath: file))
        let signIns = SignIns(store: store, hunt: "PLAY", clock: { [t0] in t0 })
        #expect(try await signIns.importSessionsFile(file, at: t0) == 2)
        #expect(try await signIns.player(for: ada) == "P1")
        #expect(try await signIns.player(for: bo) == nil, "ended by the - line")
        #expect(try await signIns.player(for: cy) == "P3")
        #expect(!FileManager.default.fileExists(atPath: file) && FileManager.default.fileExists(atPath: file + ".imported"))
        #expect(try await signIns.importSessionsFile(file, at: t0) == 0, "once")

        // The first format, one JSON object of digest → player, is read too.
        try JSONEncoder().encode([SignIns.sessionKey(bo): "P9"]).write(to: URL(fileURLWithPath: file))
        #expect(try await signIns.importSessionsFile(file, at: t0) == 1)
        #expect(try await signIns.player(for: bo) == "P9")
    }
}
