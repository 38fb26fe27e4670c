import Foundation
import GeoQR
import Ledger
import Play
import Testing

/// The control room's teams come from the server, summed once (issue 25): the page only shows
/// them.
@Suite("Players grouped by team")
struct TeamGroupTests {
    @Test func teamsIgnoreCaseAreSortedByNameAndThePlayersWithNoTeamComeLast() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("team-groups-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try SQLiteGameStore(directory: folder.path, configuration: .init(pinCost: 4))
        let now = Date(timeIntervalSince1970: 1_750_000_000)
        var ids: [String: String] = [:]
        for (name, team) in [("Ada", "Owls"), ("Bo", nil), ("Cy", "foxes"), ("Di", "Foxes"), ("Ed", nil)] as [(String, String?)] {
            ids[name] = try await store.join(hunt: "T", name: name, pin: "4321", team: team, at: now).id
        }
        for (name, amount) in [("Ada", 5), ("Bo", 7), ("Cy", 10), ("Di", 20)] {
            try await store.adjustPoints(hunt: "T", player: ids[name]!, amount: amount, reason: "test", by: "gm", at: now)
        }
        let groups = TeamGroup.group(try await store.players(hunt: "T"), standings: try await store.leaderboard(hunt: "T"))
        #expect(groups.map(\.team) == ["foxes", "Owls", nil])
        #expect(groups.map(\.points) == [30, 5, 7])
        #expect(groups.map(\.players) == [[ids["Cy"]!, ids["Di"]!], [ids["Ada"]!], [ids["Bo"]!, ids["Ed"]!]])
    }
}
