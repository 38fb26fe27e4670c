import Foundation
import GeoQR
import Ledger
import Play
import Testing

/// Teams, paid hints, results and station health, on a real SQLite ledger with a clock the
/// test moves.
@Suite("Teams, hints, results and stations")
struct ControlRoomTests {
    static let hunt = Hunt(id: "ROOM", name: "Room", caches: [
        Cache(id: "A1", name: "Bridge", coordinate: Coordinate(latitude: 40.6400, longitude: -8.6500),
              message: "Under the bridge", hint: "Look under the third plank"),
        Cache(id: "A2", name: "Mill, \"old\"", coordinate: Coordinate(latitude: 40.6490, longitude: -8.6500),
              message: "Behind the wheel"),
    ], teams: ["Foxes", "Owls"], hintCost: 5)

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("play-tests-\(UUID().uuidString)")
    let clock = GameTests.Clock()
    let secret = HuntSecret.random()
    let game: Game

    init() throws {
        let store = try SQLiteGameStore(directory: folder.path, configuration: .init(pinCost: 4))
        let clock = self.clock
        game = Game(hunt: Self.hunt, secret: secret, store: store, clock: { clock.read() })
    }

    func find(_ cache: String, by player: String) async throws {
        let code = CacheCode.payload(hunt: "ROOM", cache: cache, secret: secret)
        let here = ClaimLocation(coordinate: Self.hunt.cache(id: cache)!.coordinate, accuracy: 5, source: .browser)
        let answer = try await game.claimCode(code, at: here, method: .link, by: player).value.best
        #expect(answer.outcome == .found, "\(answer.sentence)")
    }

    /// A claim refused with `verdict` at `cache`, scanned now.
    func refused(_ cache: String, by player: String, _ verdict: Verdict) async throws {
        let record = ClaimRecord(player: player, hunt: "ROOM", cache: cache, time: clock.read(),
                                 location: Self.hunt.cache(id: cache)!.coordinate, method: .link,
                                 evidence: ClaimEvidence(), verdict: verdict)
        _ = try await game.store.record(record, in: Self.hunt, at: clock.read())
    }

    @Test func aHuntWithTeamsTakesOnlyItsOwn() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(throws: GameRuleViolation.teamNotInHunt("Badgers", teams: ["Foxes", "Owls"])) {
            try await game.join(name: "Ada", pin: "4321", team: "Badgers")
        }
        #expect(GameRuleViolation.teamNotInHunt("Badgers", teams: ["Foxes", "Owls"]).description
                == "\"Badgers\" is not a team of this hunt: choose Foxes, Owls")
        #expect(try await game.join(name: "Ada", pin: "4321", team: " foxes ").value.team == "Foxes")
        #expect(try await game.join(name: "Bob", pin: "4321", team: nil).value.team == nil, "no team is always allowed")
        #expect(try await game.store.players(hunt: "ROOM").count == 2)
    }

    @Test func teamsAreRankedByTheirPlayersSums() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: "Foxes").value
        let bob = try await game.join(name: "Bob", pin: "4321", team: "Owls").value
        let cy = try await game.join(name: "Cy", pin: "4321", team: "Owls").value
        _ = try await game.join(name: "Di", pin: "4321", team: nil)
        try await find("A1", by: ada.id)          // 10 + 5 first to find
        try await find("A2", by: bob.id)          // 10 + 5
        try await find("A1", by: cy.id)           // 10
        let teams = try await game.teamStandings()
        #expect(teams == [TeamStanding(rank: 1, team: "Owls", points: 25, finds: 2, players: 2),
                          TeamStanding(rank: 2, team: "Foxes", points: 15, finds: 1, players: 1)])
        #expect(try await game.standing(of: ada).team == "Foxes")
    }

    @Test func teamsLevelInPointsAndFindsShareARank() {
        let board = [Standing(player: "P1", name: "Ada", team: "Foxes", points: 20, finds: 2),
                     Standing(player: "P2", name: "Bo", team: "Owls", points: 10, finds: 1),
                     Standing(player: "P3", name: "Cy", team: "Hares", points: 10, finds: 1),
                     Standing(player: "P4", name: "Di", team: "Owls", points: 10, finds: 1),
                     Standing(player: "P5", name: "Ed", team: "Moles", points: 20, finds: 1),
                     Standing(player: "P6", name: "Flo", team: "Bats", points: 10, finds: 1)]
        let teams = TeamStanding.rank(board)
        // Owls 20/2 level with Foxes 20/2; Moles 20/1 behind on finds; Bats and Hares level.
        #expect(teams.map(\.team) == ["Foxes", "Owls", "Moles", "Bats", "Hares"])
        #expect(teams.map(\.rank) == [1, 1, 3, 4, 4])
    }

    @Test func aPaidHintIsChargedOnceAndAFreeOneNever() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: "Foxes").value
        #expect(try await game.revealedHints(of: ada.id).isEmpty)
        let paid = try await game.revealHint(cache: "bridge", by: ada.id)
        #expect(paid.value == RevealedHint(cache: "A1", hint: "Look under the third plank", cost: 5, charged: true))
        #expect(paid.effects == [.standingsChanged])
        let again = try await game.revealHint(cache: "A1", by: ada.id)
        #expect(again.value.charged == false && again.value.cost == 5 && again.effects.isEmpty)
        #expect(try await game.standing(of: ada).points == -5)
        #expect(try await game.revealedHints(of: ada.id) == ["A1"])
        await #expect(throws: GameRuleViolation.noHint("A2")) { try await game.revealHint(cache: "A2", by: ada.id) }

        // What the cache list shows: the price until paid, then the hint.
        let a1 = Self.hunt.caches[0]
        #expect(CacheHint(a1, in: Self.hunt, paid: false) == CacheHint(text: nil, cost: 5, revealed: false))
        #expect(CacheHint(a1, in: Self.hunt, paid: true) == CacheHint(text: a1.hint, cost: 5, revealed: true))
        #expect(CacheHint(Self.hunt.caches[1], in: Self.hunt, paid: false) == CacheHint(text: nil, cost: nil, revealed: nil))
        #expect(CacheHint(a1, in: Self.hunt, paid: false, found: true) == CacheHint(text: a1.hint, cost: nil, revealed: nil),
                "a found cache's hint is shown, with no price")

        var free = Self.hunt
        free.hintCost = 0
        #expect(CacheHint(a1, in: free, paid: false) == CacheHint(text: a1.hint, cost: nil, revealed: nil))
        let freeGame = Game(hunt: free, secret: secret, store: game.store, clock: { Date() })
        let bob = try await freeGame.join(name: "Bob", pin: "4321", team: nil).value
        let hint = try await freeGame.revealHint(cache: "A1", by: bob.id)
        #expect(hint.value == RevealedHint(cache: "A1", hint: a1.hint!, cost: 0, charged: false) && hint.effects.isEmpty)
        #expect(try await game.store.hints(hunt: "ROOM", player: nil).count == 1, "a free hint records nothing")

        _ = try await game.setRunning(false)
        await #expect(throws: PlayError.huntStopped) { try await game.revealHint(cache: "A1", by: bob.id) }
        #expect(try await game.revealHint(cache: "A1", by: ada.id).value.charged == false, "a paid hint stays readable")
        #expect(try await game.store.verify().isIntact)
    }

    @Test func theHintOfAFoundCacheIsFreeOnEveryFrontEnd() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: "Foxes").value
        try await find("A1", by: ada.id)
        let before = try await game.standing(of: ada).points
        let hint = try await game.revealHint(cache: "A1", by: ada.id)
        #expect(hint.value == RevealedHint(cache: "A1", hint: "Look under the third plank", cost: 0, charged: false))
        let after = try await game.standing(of: ada).points
        #expect(hint.effects.isEmpty && after == before, "nothing charged")
        #expect(try await game.store.hints(hunt: "ROOM", player: ada.id).isEmpty, "nothing recorded")
        // Once the find is voided, the hint has a price again.
        let find = try #require(try await game.store.finds(hunt: "ROOM", player: ada.id).first)
        _ = try await game.voidFind(find.id, reason: "photographed from the bus")
        #expect(try await game.revealHint(cache: "A1", by: ada.id).value.charged)
    }

    @Test func resultsRankPlayersAndListEveryFind() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "=Ada", pin: "4321", team: "Foxes").value
        let bob = try await game.join(name: "Bob", pin: "4321", team: nil).value
        let cy = try await game.join(name: "Cy", pin: "4321", team: "Owls").value
        try await find("A1", by: ada.id)
        clock.advance(60)
        try await find("A2", by: bob.id)
        clock.advance(60)
        try await find("A2", by: cy.id)
        let cyFind = try #require(try await game.store.finds(hunt: "ROOM", player: cy.id).first)
        _ = try await game.voidFind(cyFind.id, reason: "same photo, as Bob's")

        let results = try await game.results()
        #expect(results.standings.map(\.rank) == [1, 1, 3], "equal points and finds share a rank")
        #expect(results.standings.map(\.name) == ["=Ada", "Bob", "Cy"])
        #expect(results.standings.first?.team == "Foxes")
        #expect(results.finds.count == 3)
        let voided = try #require(results.finds.last)
        #expect(voided.voided && voided.points == 0 && voided.voidReason == "same photo, as Bob's" && voided.team == "Owls")
        let first = try #require(results.finds.first)
        #expect(first.playerName == "=Ada" && first.cacheName == "Bridge" && first.points == 15 && first.firstToFind)
        #expect(first.time == "2026-11-18T11:06:40Z")

        let standings = results.csv(.standings)
        #expect(standings == "rank,player,name,team,points,finds\r\n1,\(ada.id),'=Ada,Foxes,15,1\r\n"
                           + "1,\(bob.id),Bob,,15,1\r\n3,\(cy.id),Cy,Owls,0,0\r\n")
        let finds = results.csv(.finds).components(separatedBy: "\r\n")
        #expect(finds[0] == "id,time,player,playerName,team,cache,cacheName,method,points,firstToFind,voided,voidReason")
        #expect(finds[3] == "\(cyFind.id),2026-11-18T11:08:40Z,\(cy.id),Cy,Owls,A2,\"Mill, \"\"old\"\"\",link,0,false,true,"
                           + "\"same photo, as Bob's\"")
        #expect(results.csv(.teams) == "rank,team,points,finds,players\r\n1,Foxes,15,1,1\r\n2,Owls,0,0,1\r\n")
    }

    @Test func aStationWarnsAfterRefusalsAndNoFindForHalfAnHour() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        try await find("A1", by: ada.id)
        clock.advance(60)
        try await refused("A1", by: ada.id, .forged)
        try await refused("A1", by: ada.id, .tooFar)            // says nothing of the code
        try await refused("A1", by: ada.id, .noLocation)
        var a1 = try #require(try await game.stations().first)
        #expect(a1.finds == 1 && a1.refused == ["forged": 1, "too-far": 1, "no-location": 1] && a1.warning == nil)
        try await refused("A1", by: ada.id, .forged)
        a1 = try #require(try await game.stations().first)
        #expect(a1.warning == nil, "three refusals, but a find one minute ago")
        clock.advance(44 * 60)
        a1 = try #require(try await game.stations().first)
        #expect(a1.warning == "3 refused scans and no find for 45 min: the code may be missing, soaked or misplaced")
        #expect(a1.lastFind == GameTests.t0 && a1.lastRefused == GameTests.t0.addingTimeInterval(60))

        // A2: never found, three refusals: warned at once; a report and a closed cache show.
        for _ in 0..<3 { try await refused("A2", by: ada.id, .forged) }
        _ = try await game.fileReport(on: "A2", kind: .missing, text: "gone", photo: nil, by: ada.id)
        _ = try await game.setCacheDisabled(true, cache: "A2", reason: "checking")
        let a2 = try #require(try await game.stations().last)
        #expect(a2.warning == "3 refused scans and no find yet: the code may be missing, soaked or misplaced")
        #expect(a2.openReports == 1 && a2.disabled && a2.lastFind == nil && a2.finds == 0)

        // A new find clears the warning: the refusals before it are not counted.
        let bob = try await game.join(name: "Bob", pin: "4321", team: nil).value
        try await find("A1", by: bob.id)
        clock.advance(3600)
        #expect(try await game.stations().first?.warning == nil)
    }
}
