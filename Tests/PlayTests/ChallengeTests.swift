import Foundation
import GeoQR
import Ledger
import Play
import Testing

/// Station questions on a real SQLite ledger: shown to finders, answered right or wrong within
/// the tries, and an answer kept offline counted once at the time it was answered.
@Suite("Station questions")
struct ChallengeTests {
    static let hunt = Hunt(id: "QUIZ", name: "Quiz", caches: [
        Cache(id: "A1", name: "Plaque", coordinate: Coordinate(latitude: 40.64, longitude: -8.65), points: 10,
              challenge: Challenge(kind: .question(prompt: "Which city is on the plaque?", answers: ["São Tomé"], choices: []),
                                   points: 8, penalty: 2, tries: 2)),
        Cache(id: "A2", name: "Mill", coordinate: Coordinate(latitude: 40.65, longitude: -8.65), points: 10,
              challenge: Challenge(kind: .question(prompt: "Wheel colour?", answers: ["red"], choices: ["blue", "red", "green"]),
                                   points: 5)),
    ])

    let played: LedgerGame
    var game: Game { played.game }
    var clock: GameTests.Clock { played.clock }
    var secret: HuntSecret { played.secret }
    var folder: URL { played.folder }

    init() throws {
        played = try LedgerGame(hunt: Self.hunt, label: "challenges")
    }

    func find(_ cache: String, by player: Player) async throws {
        let here = ClaimLocation(coordinate: Self.hunt.cache(id: cache)!.coordinate, accuracy: 5, source: .browser)
        _ = try await game.claimCode(CacheCode.payload(hunt: "QUIZ", cache: cache, secret: secret), at: here, method: .link, by: player.id)
    }

    @Test func answersAreJudgedNormalisedAndTriesRunOut() throws {
        let question = try #require(Self.hunt.cache(id: "A1")?.challenge)
        #expect(question.accepts("  sao   TOME! "))
        #expect(!question.accepts("Sao Paulo") && !question.accepts("   "))
        let choice = try #require(Self.hunt.cache(id: "A2")?.challenge)
        #expect(choice.accepts("2") && choice.accepts("Red") && !choice.accepts("1") && !choice.accepts("4"))
    }

    @Test func aFinderAnswersWrongThenRightAndAnOfflineAnswerCountsOnce() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let ada = try await game.join(name: "Ada", pin: "4321", team: nil).value
        await #expect(throws: GameRuleViolation.cacheNotFoundByPlayer(cache: "A1", player: ada.id)) {
            try await game.answerQuestion(cache: "A1", answer: "x", by: ada.id)
        }
        try await find("A1", by: ada)     // 10 + 5 first to find
        let wrong = try await game.answerQuestion(cache: "A1", answer: "Lisbon", by: ada.id)
        #expect(!wrong.value.correct && wrong.value.points == -2 && wrong.value.state.wrong == 1)
        #expect(wrong.effects == [.standingsChanged])
        let right = try await game.answerQuestion(cache: "plaque", answer: "sao tome", by: ada.id)
        #expect(right.value.correct && right.value.points == 8 && right.value.state.solved)
        let again = try await game.answerQuestion(cache: "A1", answer: "Lisbon", by: ada.id)
        #expect(!again.value.isNew && again.effects.isEmpty, "a solved question takes no more answers")
        #expect(try await game.standing(of: ada).points == 15 - 2 + 8)

        // Bob answers A2 offline, 20 minutes before sending it, and the phone sends it twice.
        let bob = try await game.join(name: "Bob", pin: "4321", team: nil).value
        try await find("A2", by: bob)
        clock.advance(30 * 60)
        let offline = Sending(claimID: "ans-1", scannedAt: clock.read().addingTimeInterval(-20 * 60))
        let first = try await game.answerQuestion(cache: "A2", answer: "2", by: bob.id, sending: offline)
        let second = try await game.answerQuestion(cache: "A2", answer: "2", by: bob.id, sending: offline)
        #expect(first.value.isNew && first.value.correct && !second.value.isNew && second.value.correct)
        let answered = try await game.store.events(after: 0, limit: 100).filter { $0.kind == "challenge-answered" }
        #expect(answered.count == 3)
        let body = try #require(answered.last?.body)
        let at = Int64((GameTests.t0.addingTimeInterval(10 * 60).timeIntervalSince1970 * 1000).rounded())
        #expect(body.contains("\"answeredMs\":\(at)") && !body.contains("\"2\""), "kept at the time it was answered, without its text: \(body)")

        // Out of tries.
        let cy = try await game.join(name: "Cy", pin: "4321", team: nil).value
        try await find("A1", by: cy)
        _ = try await game.answerQuestion(cache: "A1", answer: "no", by: cy.id)
        _ = try await game.answerQuestion(cache: "A1", answer: "nope", by: cy.id)
        await #expect(throws: GameRuleViolation.noTriesLeft("A1")) {
            try await game.answerQuestion(cache: "A1", answer: "São Tomé", by: cy.id)
        }
        #expect(try await game.challengeStates(of: cy.id)["A1"] == ChallengeState(cache: "A1", solved: false, wrong: 2, points: -4))
        #expect(try await game.store.verify().isIntact)
    }
}
