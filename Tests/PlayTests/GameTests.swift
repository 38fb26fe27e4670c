import Foundation
import GeoQR
import Ledger
import Play
import Testing

/// The game's actions on a real SQLite ledger in a temporary folder, with a clock the test
/// moves: the rules every front end now shares.
@Suite("Game actions")
struct GameTests {
    static let hunt = Hunt(id: "PLAY", name: "Play", trails: [], caches: [
        Cache(id: "A1", name: "Bridge", coordinate: Coordinate(latitude: 40.6400, longitude: -8.6500), message: "Under the bridge"),
        Cache(id: "A2", name: "Mill", coordinate: Coordinate(latitude: 40.6490, longitude: -8.6500), message: "Behind the wheel"),
    ])
    static let t0 = Date(timeIntervalSince1970: 1_795_000_000)

    /// A clock the test sets.
    final class Clock: @unchecked Sendable {
        private let lock = NSLock()
        private var now = GameTests.t0
        func read() -> Date { lock.withLock { now } }
        func advance(_ seconds: TimeInterval) { lock.withLock { now += seconds } }
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("play-tests-\(UUID().uuidString)")
    let clock = Clock()
    let secret = HuntSecret.random()
    let game: Game

    init() throws {
        let store = try SQLiteGameStore(directory: folder.path, configuration: .init(pinCost: 4))
        let clock = self.clock
        game = Game(hunt: Self.hunt, secret: secret, store: store, clock: { clock.read() })
    }

    func code(_ cache: String) -> String { CacheCode.payload(hunt: "PLAY", cache: cache, secret: secret) }

    func at(_ cache: String, time: Date? = nil) -> ClaimLocation {
        ClaimLocation(coordinate: Self.hunt.cache(id: cache)!.coordinate, accuracy: 5, source: .browser, time: time)
    }

    @Test func aFindSaysWhatItChangedAndAnsweredInTheOneShape() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil)
        #expect(ada.effects == [.playerSeen(ada.value), .standingsChanged])
        let claimed = try await game.claimCode(code("A1"), at: at("A1"), method: .link, by: ada.value.id)
        let answer = claimed.value.best
        #expect(answer.verdict == .claimable && answer.outcome == .found && answer.message == "Under the bridge")
        let find = try #require(try await game.store.finds(hunt: "PLAY", player: nil).first)
        guard case .claimJudged(let record, .claimable, answer.find, answer.points) = claimed.effects.last else {
            Issue.record("the feed hears the find: \(claimed.effects)")
            return
        }
        #expect(record.player == ada.value.id && record.cache == "A1" && record.method == .link)
        #expect(claimed.effects == [.findsChanged(player: ada.value.id), .found(find, points: answer.points!), .standingsChanged,
                                    .claimJudged(record, verdict: .claimable, find: answer.find, points: answer.points)])
        let again = try await game.claimCode(code("A1"), at: at("A1"), method: .link, by: ada.value.id)
        #expect(again.value.best.verdict == .alreadyFound && again.value.best.find == answer.find, "one find per player per cache")
        guard case .claimJudged(let repeated, .alreadyFound, answer.find, _) = again.effects.first, again.effects.count == 1 else {
            Issue.record("a refused claim changes nothing but is news for the game master's feed: \(again.effects)")
            return
        }
        #expect(repeated.player == ada.value.id && repeated.cache == "A1")
    }

    /// The control room's line for a claim is one: made live from what the claim's effect says,
    /// and for a stream that resumes from the event the ledger kept, it is the same line.
    @Test func theFeedLineOfAClaimIsTheSameLiveAndFromTheLedger() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: "Foxes").value
        let far = try await game.claimCode(code("A2"), at: at("A1"), method: .link, by: ada.id)
        let found = try await game.claimCode(code("A1"), at: at("A1"), method: .camera, by: ada.id)
        let live = (far.effects + found.effects).compactMap { effect -> FeedLine? in
            guard case .claimJudged(let claim, let verdict, let find, let points) = effect else { return nil }
            return FeedLine(claim, verdict: verdict, find: find, points: points, name: ada.name, team: ada.team,
                            in: Self.hunt, at: Self.t0)
        }
        let kept = try await game.store.events(after: 0, limit: 100).compactMap { event -> FeedLine? in
            guard let (claim, verdict, find, points) = try FeedLine.recorded(in: event) else { return nil }
            return FeedLine(claim, verdict: verdict, find: find, points: points, name: ada.name, team: ada.team,
                            in: Self.hunt, at: Self.t0)
        }
        #expect(live.map(\.verdict) == ["too-far", "claimable"] && live.map(\.refused) == [true, false])
        #expect(live[0].distanceM.map { $0 > 900 && $0 < 1100 } == true, "A2 is about a kilometre from where Ada stood")
        #expect((live[1].points ?? 0) > 0 && live[1].find != nil && live[1].method == "camera")
        #expect(kept == live)
    }

    @Test func aCameraHeldAtACodeFromTooFarRecordsTheRefusalOnceAMinute() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        let far = at("A2")   // a kilometre from A1
        func aim(_ cache: String = "A1", method: ClaimMethod = .camera) async throws -> Outcome<ClaimAnswers> {
            try await game.claimCode(code(cache), at: far, method: method, by: ada.id)
        }
        let first = try await aim()
        #expect(first.value.best.verdict == .tooFar && first.value.best.outcome == .attempt)
        #expect(first.effects.count == 1, "the first refusal is news for the control room")
        for _ in 0..<20 {
            clock.advance(0.125)   // eight frames a second
            let again = try await aim()
            #expect(again.value.best.verdict == .tooFar && again.value.best.outcome == nil, "answered, not recorded")
            #expect(again.effects.isEmpty)
        }
        #expect(try await game.store.attempts(hunt: "PLAY").count == 1)
        // Another verdict, another cache or a link claim is recorded; so is the same after a minute.
        _ = try await game.claimCode(code("A1") + "X", at: far, method: .camera, by: ada.id)
        _ = try await aim(method: .link)
        #expect(try await game.store.attempts(hunt: "PLAY").count == 3)
        // Forged codes are one kind, whatever cache they name.
        _ = try await game.claimCode(code("A2") + "X", at: far, method: .camera, by: ada.id)
        #expect(try await game.store.attempts(hunt: "PLAY").count == 3)
        clock.advance(60)
        #expect(try await aim().value.best.outcome == .attempt)
        #expect(try await game.store.attempts(hunt: "PLAY").count == 4)
        // A find is never held back.
        let found = try await game.claimCode(code("A2"), at: far, method: .camera, by: ada.id)
        #expect(found.value.best.outcome == .found)
    }

    @Test func theFindCarriesTheScanTimeAndABackdatedScanDoesNotWinFirstToFind() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        let bob = try await game.join(name: "Bob", pin: "4321", team: nil).value
        clock.advance(600)
        let adaScan = GameTests.t0.addingTimeInterval(300)
        let first = try await game.claimCode(code("A1"), at: at("A1", time: adaScan), method: .link, by: ada.id).value.best
        #expect(first.firstToFind == true && first.scanTime == adaScan)
        clock.advance(60)
        // Bob's fix says he was there an hour before Ada: the ledger's order still decides.
        let bobScan = GameTests.t0.addingTimeInterval(-3600)
        let second = try await game.claimCode(code("A1"), at: at("A1", time: bobScan), method: .link, by: bob.id).value.best
        #expect(second.outcome == .found && second.firstToFind == false)
        let finds = try await game.store.finds(hunt: "PLAY", player: nil)
        #expect(finds.first { $0.player == ada.id }?.time == adaScan && finds.first { $0.player == bob.id }?.time == bobScan,
                "a find's time is when its code was scanned")
        let events = try await game.store.events(after: 0, limit: 100).filter { $0.kind == "find-recorded" }
        #expect(events.map(\.time) == [GameTests.t0.addingTimeInterval(600), GameTests.t0.addingTimeInterval(660)],
                "the event is stamped when it was recorded")
        // A fix dated after the present (a phone's clock ahead) counts as now.
        let later = try await game.claimCode(code("A2"), at: at("A2", time: clock.read().addingTimeInterval(7200)),
                                             method: .link, by: ada.id).value.best
        #expect(later.outcome == .found)
        #expect(try await game.store.finds(hunt: "PLAY", player: ada.id).last?.time == clock.read())
    }

    @Test func aStoppedHuntRefusesClaimsTradesAndTrackables() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        #expect(try await game.setRunning(false).effects == [.runningChanged(false)])
        await #expect(throws: PlayError.huntStopped) {
            try await game.claimCode(code("A1"), at: at("A1"), method: .link, by: ada.id)
        }
        await #expect(throws: PlayError.huntStopped) {
            try await game.offerTrade(from: ada.id, to: "Ada", give: ["C1"], receive: [])
        }
        _ = try await game.setRunning(true)
        #expect(try await game.claimCode(code("A1"), at: at("A1"), method: .link, by: ada.id).value.best.outcome == .found)
    }

    @Test func teamNamesTradeLifetimesAndTheGameMastersNameAreTheGamesRules() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        await #expect(throws: GameRuleViolation.badTeamName) {
            try await game.join(name: "Ada", pin: "4321", team: String(repeating: "x", count: 33))
        }
        await #expect(throws: GameRuleViolation.badTeamName) { try await game.join(name: "Ada", pin: "4321", team: "Red\tTeam") }
        let ada = try await game.join(name: "Ada", pin: "4321", team: "  Red  ").value
        #expect(ada.team == "Red")
        let bob = try await game.join(name: "Bob", pin: "4321", team: "").value
        #expect(bob.team == nil)
        for id in [ada.id, bob.id] {
            let cache = id == ada.id ? "A1" : "A2"
            _ = try await game.claimCode(code(cache), at: at(cache), method: .link, by: id)
        }
        let cards = try await game.store.collection(hunt: "PLAY", player: ada.id)
        let long = try await game.offerTrade(from: ada.id, to: "bob", give: [cards[0].id], receive: [], minutes: 100_000).value
        #expect(long.expiresAt.timeIntervalSince(long.offeredAt) == 24 * 3600)
        let short = try await game.offerTrade(from: ada.id, to: "Bob", give: [cards[0].id], receive: [], minutes: 0.01).value
        #expect(short.expiresAt.timeIntervalSince(short.offeredAt) == 60)
        // Only the two parties learn that a trade exists.
        let eve = try await game.join(name: "Eve", pin: "4321", team: nil).value
        await #expect(throws: GameRuleViolation.unknownTrade(long.id)) { try await game.answerTrade(long.id, .accept, by: eve.id) }
        let accepted = try await game.answerTrade(long.id.lowercased(), .accept, by: bob.id)
        #expect(accepted.value.state == .accepted && accepted.effects == [.tradeChanged(accepted.value), .standingsChanged])

        let find = try #require(try await game.store.finds(hunt: "PLAY", player: bob.id).first)
        _ = try await game.voidFind(find.id, reason: "test")
        _ = try await game.setCacheDisabled(true, cache: "mill", reason: nil)
        let acts = try await game.store.events(after: 0, limit: 100).filter { ["find-voided", "cache-availability"].contains($0.kind) }
        #expect(acts.count == 2 && acts.allSatisfy { $0.actor == GameMaster.actor })
    }

    @Test func aTradeThatFailsItsRecheckIsToldToBothParties() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        let bob = try await game.join(name: "Bob", pin: "4321", team: nil).value
        _ = try await game.claimCode(code("A1"), at: at("A1"), method: .link, by: ada.id)
        let card = try #require(try await game.store.collection(hunt: "PLAY", player: ada.id).first)
        let offer = try await game.offerTrade(from: ada.id, to: bob.id, give: [card.id], receive: []).value
        clock.advance(3600)   // past its 15 minutes
        do {
            _ = try await game.answerTrade(offer.id, .accept, by: bob.id)
            Issue.record("an expired trade was accepted")
        } catch let refusal as Refusal {
            #expect(refusal.reason as? GameRuleViolation == .tradeExpired(offer.id))
            guard case .tradeChanged(let closed)? = refusal.effects.first else { Issue.record("no news of the closed trade"); return }
            #expect(closed.state != .open)
        }
    }
}
