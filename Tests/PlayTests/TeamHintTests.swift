import Foundation
import GeoQR
import Ledger
import Play
import Testing

/// Hints in a hunt with teams are charged once per team, on a real SQLite ledger.
@Suite("Hints charged per team")
struct TeamHintTests {
    static let hunt = Hunt(id: "TEAMS", name: "Teams", caches: [
        Cache(id: "A1", name: "Bridge", coordinate: Coordinate(latitude: 40.64, longitude: -8.65), points: 10, hint: "under it"),
        Cache(id: "A2", name: "Mill", coordinate: Coordinate(latitude: 40.65, longitude: -8.65), points: 10, hint: "behind it"),
    ], teams: ["Foxes", "Owls"], hintCost: 4)

    let played: LedgerGame
    var game: Game { played.game }
    var secret: HuntSecret { played.secret }
    var folder: URL { played.folder }

    init() throws {
        played = try LedgerGame(hunt: Self.hunt, label: "team-hints")
    }

    func points(_ player: Player) async throws -> Int { try await game.standing(of: player).points }

    @Test func aTeamPaysOnceAndAPlayerWithoutATeamPaysOnlyWithPointsTheyHave() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: "Foxes").value
        let bea = try await game.join(name: "Bea", pin: "4321", team: "Foxes").value
        let cai = try await game.join(name: "Cai", pin: "4321", team: "Owls").value
        let dan = try await game.join(name: "Dan", pin: "4321", team: nil).value

        let paid = try await game.revealHint(cache: "A1", by: ada.id).value
        #expect(paid.charged && paid.cost == 4)
        #expect(try await game.revealedHints(of: bea.id) == ["A1"], "Bea sees the hint her teammate paid for")
        let shared = try await game.revealHint(cache: "A1", by: bea.id).value
        #expect(!shared.charged && shared.cost == 0 && shared.hint == "under it")
        let (adaPoints, beaPoints) = (try await points(ada), try await points(bea))
        #expect(adaPoints == -4 && beaPoints == 0, "the team paid 4 once")
        let caiPaid = try await game.revealHint(cache: "A1", by: cai.id).value
        #expect(caiPaid.charged, "another team pays for itself")
        #expect(try await game.revealedHints(of: ada.id) == ["A1"], "Cai's payment is not the Foxes'")

        // Dan, alone in a team hunt with no points, cannot buy a hint on credit.
        await #expect(throws: GameRuleViolation.notEnoughPoints(have: 0, cost: 4)) {
            try await game.revealHint(cache: "A2", by: dan.id)
        }
        let here = ClaimLocation(coordinate: Self.hunt.cache(id: "A1")!.coordinate, accuracy: 5, source: .browser)
        _ = try await game.claimCode(CacheCode.payload(hunt: "TEAMS", cache: "A1", secret: secret), at: here,
                                     method: .link, by: dan.id)
        let danPaid = try await game.revealHint(cache: "A2", by: dan.id).value
        #expect(danPaid.charged, "with 15 points he can")
        let danPoints = try await points(dan)
        #expect(danPoints == 11)      // 10, 5 for the first find, less 4
        #expect(GameRuleViolation.notEnoughPoints(have: 0, cost: 4).description
                == "this hint costs 4 points and you have 0: join a team, or find a cache first")
        #expect(try await game.store.verify().isIntact)
    }
}
