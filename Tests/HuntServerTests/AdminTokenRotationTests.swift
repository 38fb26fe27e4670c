import Foundation
@testable import HuntServer
import Testing

/// `geoqr gm rotate-admin-token` (issue 24 §8): a new token in the data directory, which a
/// running server's token notices within ``AdminToken/refreshInterval``, without a restart.
@Suite("Admin token rotation")
struct AdminTokenRotationTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("admin-token-\(UUID().uuidString)").path

    @Test func aRunningServerStopsTakingTheOldTokenWithinSeconds() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let running = try AdminToken.load(directory: folder, hunt: "demo")
        let old = running.value
        let reloaded = try AdminToken.load(directory: folder, hunt: "DEMO").value
        #expect(running.matches(old) && reloaded == old, "made once, then reused")
        let rotated = try AdminToken.rotate(directory: folder, hunt: "demo")
        #expect(rotated.value != old && rotated.value.count == 32)
        let attributes = try FileManager.default.attributesOfItem(atPath: AdminToken.file(directory: folder, hunt: "demo"))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        try await Task.sleep(for: AdminToken.refreshInterval + .milliseconds(100))
        #expect(!running.matches(old), "the old token stops working on the running server")
        #expect(running.matches(rotated.value))
        // A token file removed by mistake keeps the token in force rather than locking the game master out.
        try FileManager.default.removeItem(atPath: AdminToken.file(directory: folder, hunt: "demo"))
        try await Task.sleep(for: AdminToken.refreshInterval + .milliseconds(100))
        #expect(running.matches(rotated.value))
        #expect(AdminToken(value: "fixed").matches("fixed"))
    }
}
