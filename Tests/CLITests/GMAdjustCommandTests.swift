import Foundation
import Testing

/// `geoqr gm adjust` takes a negative number as it is, wherever the game master writes it.
@Suite struct GMAdjustCommandTests {
    func points(_ geoqr: GeoQRProcess) throws -> Int? {
        let board = try geoqr.run("leaderboard", "--hunt", "demo", "--json")
        return (try JSONSerialization.jsonObject(with: board.stdoutData) as? [[String: Any]])?.first?["points"] as? Int
    }

    @Test func negativePointsWithoutDashDash() throws {
        let geoqr = try GeoQRProcess()
        #expect(try geoqr.run("player", "add", "Ada", "--hunt", "demo", "--pin", "4321").status == 0)
        let forms: [([String], Int)] = [
            (["gm", "adjust", "Ada", "-5", "--hunt", "demo", "--reason", "r"], -5),
            (["gm", "adjust", "Ada", "--points", "-4", "--hunt", "demo", "--reason", "r"], -9),
            (["gm", "adjust", "--hunt", "demo", "--reason", "r", "Ada", "--", "-3"], -12),
            (["gm", "adjust", "Ada", "10", "--hunt", "demo", "--reason", "r"], -2),
        ]
        for (arguments, total) in forms {
            let r = try geoqr.run(arguments: arguments)
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
            #expect(try points(geoqr) == total, "\(arguments)")
        }
        let before = try geoqr.run("ledger", "export").stdout
        for arguments in [["gm", "adjust", "Ada", "-5", "-6"], ["gm", "adjust", "Ada", "--bogus"], ["gm", "adjust", "Ada"],
                          ["gm", "adjust", "Ada", "-5", "--points", "2"], ["gm", "adjust", "Ada", "0"]] {
            let r = try geoqr.run(arguments: arguments + ["--hunt", "demo", "--reason", "r"])
            #expect(r.status != 0, "\(arguments)")
            #expect(r.stderr.hasPrefix("Error: "), "\(arguments): \(r.stderr)")
        }
        #expect(try geoqr.run("ledger", "export").stdout == before, "refused before any work")
    }
}
