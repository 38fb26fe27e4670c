import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

/// A station's question, shown to its finders only, and their answers
/// (``Play/Game/answerQuestion(cache:answer:by:sending:)``).
struct ChallengeController {
    let session: ServedHunt

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        group.get("caches/:id/challenge", use: show)
        group.post("caches/:id/answer", use: answer)
    }

    /// A question as its finder sees it: never the accepted answers.
    struct QuestionView: ResponseEncodable {
        var cache: String
        var question: String
        /// Empty for a free answer.
        var choices: [String]
        var points: Int
        var penalty: Int
        var tries: Int
        var triesLeft: Int
        var solved: Bool
    }

    @Sendable func show(_ request: Request, context: HuntRequestContext) async throws -> QuestionView {
        let player = try await session.player(request)
        let id = try session.game.hunt.cacheID(named: try context.parameters.require("id"))
        guard let challenge = session.hunt.cache(id: id)?.challenge,
              case .question(let prompt, _, let choices) = challenge.kind else { throw GameRuleViolation.noChallenge(id) }
        guard try await session.found.caches(of: player).contains(id) else {
            throw GameRuleViolation.cacheNotFoundByPlayer(cache: id, player: player)
        }
        let state = try await session.game.challengeStates(of: player)[id]
        return QuestionView(cache: id, question: prompt, choices: choices, points: challenge.points, penalty: challenge.penalty,
                            tries: challenge.tries, triesLeft: max(0, challenge.tries - (state?.wrong ?? 0)),
                            solved: state?.solved ?? false)
    }

    struct AnswerBody: Decodable {
        var answer: String
        /// The phone's id for the answer (an answer kept with no network is sent with one).
        var answerId: String?
        /// When it was answered (ISO 8601), for an answer kept with no network.
        var answeredAt: String?
    }

    @Sendable func answer(_ request: Request, context: HuntRequestContext) async throws -> ChallengeAnswer {
        let player = try await session.player(request)
        try session.limiter.admit(.claim, client: player)
        let cache = try context.parameters.require("id")
        var request = request
        let body = try await request.json(AnswerBody.self)
        var answeredAt: Date?
        if let text = body.answeredAt {
            guard let date = parseISOTime(text) else {
                throw APIError(.unprocessableContent, "bad-answered-at", "answeredAt is not an ISO 8601 time: \(text.prefix(40))")
            }
            answeredAt = date
        }
        // The ledger keeps at most `tries` wrong answers and one right one per cache and player.
        let sending = Sending(claimID: body.answerId, scannedAt: answeredAt)
        return try await session.act { try await session.game.answerQuestion(cache: cache, answer: body.answer, by: player, sending: sending) }
    }
}

extension ChallengeAnswer: ResponseEncodable {}
