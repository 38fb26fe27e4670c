import Foundation
import GeoQR
import Testing

@Suite("Game rules (pure)")
struct RulesTests {
    @Test func playerNames() throws {
        #expect(try PlayerName.check("  Ada ", taken: []) == "Ada")
        #expect(throws: GameRuleViolation.nameEmpty) { try PlayerName.check("   ", taken: []) }
        #expect(throws: GameRuleViolation.nameTooLong(33)) { try PlayerName.check(String(repeating: "x", count: 33), taken: []) }
        #expect(try PlayerName.check(String(repeating: "é", count: 32), taken: []).count == 32)
        #expect(throws: GameRuleViolation.nameHasControlCharacters) { try PlayerName.check("Ada\tB", taken: []) }
        #expect(throws: GameRuleViolation.nameTaken("ADA")) { try PlayerName.check("ADA", taken: [PlayerName.key("ada")]) }
    }

    @Test func lockoutAfterRepeatedWrongPINs() throws {
        let policy = PINPolicy(maxFailures: 3, lockout: 600)
        var state = PINState()
        let now = Date(timeIntervalSince1970: 1000)
        for _ in 0..<2 { state = policy.afterFailure(state, at: now) }
        try policy.checkNotLocked(state, at: now)
        #expect(policy.remainingTries(state) == 1)
        state = policy.afterFailure(state, at: now)
        #expect(throws: GameRuleViolation.lockedOut(until: now.addingTimeInterval(600))) {
            try policy.checkNotLocked(state, at: now.addingTimeInterval(599))
        }
        try policy.checkNotLocked(state, at: now.addingTimeInterval(600))
        // After the lockout the count starts again.
        #expect(policy.afterFailure(state, at: now.addingTimeInterval(700)).failures == 1)
    }

    @Test func orderedTrailNeedsOrder() {
        let trail = Trail(id: "R", name: "R", ordered: true, cacheIDs: ["A", "B", "C"])
        #expect(Scoring.completes(trail, finds: ["A", "X", "B", "C"]))
        #expect(!Scoring.completes(trail, finds: ["A", "C", "B"]))
        #expect(!Scoring.completes(trail, finds: ["A", "B"]))
        var unordered = trail
        unordered.ordered = false
        #expect(Scoring.completes(unordered, finds: ["C", "A", "B"]))
    }

    @Test func pointsForFirstToFindAndTrail() {
        let scoring = Scoring(firstToFindBonus: 5, trailBonusPerCache: 5)
        let a3 = testHunt.cache(id: "A3")!
        let awards = scoring.awards(for: a3, in: testHunt, firstToFind: true, findsInOrder: ["A1", "A2", "A3"])
        #expect(awards == [PointsAward(reason: "cache", amount: 10), PointsAward(reason: "first-to-find", amount: 5),
                           PointsAward(reason: "trail:RIVER", amount: 15)])
        let late = scoring.awards(for: a3, in: testHunt, firstToFind: false, findsInOrder: ["A2", "A1", "A3"])
        #expect(late == [PointsAward(reason: "cache", amount: 10)])
        #expect(testHunt.cache(id: "B1")!.points == 25)
    }

    @Test func aCoursesStartAndFinishEarnNoFirstFinderBonusItsControlsDo() {
        var hunt = testHunt
        hunt.courses = [Course(id: "LINE", name: "Line", kind: .line, start: "A1", controls: ["A2"], finish: "A3")]
        let scoring = Scoring(firstToFindBonus: 5, trailBonusPerCache: 0)
        for gate in ["A1", "A3"] {
            let awards = scoring.awards(for: hunt.cache(id: gate)!, in: hunt, firstToFind: true, findsInOrder: [gate])
            #expect(awards == [PointsAward(reason: "cache", amount: hunt.cache(id: gate)!.points)], "\(gate)")
        }
        let control = scoring.awards(for: hunt.cache(id: "A2")!, in: hunt, firstToFind: true, findsInOrder: ["A2"])
        #expect(control.contains(PointsAward(reason: "first-to-find", amount: 5)))
    }

    @Test func findingDecisions() {
        let c = claim("P1", "A1")
        #expect(Finding.decide(c, cache: testHunt.cache(id: "A1"), disabled: false, existingFind: nil) == .newFind)
        #expect(Finding.decide(c, cache: testHunt.cache(id: "A1"), disabled: false, existingFind: "F3") == .repeatOf(findID: "F3"))
        #expect(Finding.decide(c, cache: testHunt.cache(id: "A1"), disabled: true, existingFind: nil) == .attempt(.cacheDisabled))
        #expect(Finding.decide(claim("P1", "A1", verdict: .tooFar), cache: nil, disabled: false, existingFind: nil) == .attempt(.tooFar))
    }

    @Test func tradeRechecks() throws {
        let now = Date(timeIntervalSince1970: 0)
        let offer = TradeOffer(id: "T1", from: "P1", to: "P2", give: ["C1"], receive: ["C2"], offeredAt: now)
        let holdings = [ItemHolding(id: "C1", owner: "P1", cardOfCache: "A1"),
                        ItemHolding(id: "C2", owner: "P2", cardOfCache: "A2")]
        #expect(try Trading.checkAccept(offer, by: "P2", at: now, holdings: holdings).count == 2)
        #expect(throws: GameRuleViolation.notYourTrade("T1")) { try Trading.checkAccept(offer, by: "P1", at: now, holdings: holdings) }
        #expect(throws: GameRuleViolation.tradeExpired("T1")) {
            try Trading.checkAccept(offer, by: "P2", at: now.addingTimeInterval(TradeOffer.defaultLifetime), holdings: holdings)
        }
        var moved = holdings
        moved[0].owner = "P3"
        #expect(throws: GameRuleViolation.tradeItemGone(item: "C1")) { try Trading.checkAccept(offer, by: "P2", at: now, holdings: moved) }
        let duplicate = holdings + [ItemHolding(id: "C9", owner: "P2", cardOfCache: "A1")]
        #expect(throws: GameRuleViolation.tradeDuplicateCard(player: "P2", cache: "A1")) {
            try Trading.checkAccept(offer, by: "P2", at: now, holdings: duplicate)
        }
        #expect(throws: GameRuleViolation.tradeWithSelf) { try Trading.checkOffer(from: "P1", to: "P1", give: ["C1"], receive: [], items: [:]) }
    }
}
