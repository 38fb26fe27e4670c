import Foundation
import GeoQR

/// Where a player stands with a cache's question.
public struct ChallengeState: Sendable, Equatable, Codable {
    public var cache: String
    /// Answered right.
    public var solved: Bool
    /// Wrong answers so far.
    public var wrong: Int
    /// Points won and lost on it.
    public var points: Int

    public init(cache: String, solved: Bool, wrong: Int, points: Int) {
        self.cache = cache; self.solved = solved; self.wrong = wrong; self.points = points
    }
}

/// A recorded answer, as the phone is told.
public struct ChallengeAnswer: Sendable, Equatable, Codable {
    public var correct: Bool
    /// What this answer won or lost.
    public var points: Int
    public var state: ChallengeState
    /// False when this answer had already been recorded (sent twice with one id, or the
    /// question was already solved): nothing new was written.
    public var isNew: Bool
}

extension GameStore {
    /// Records a finder's answer to `cache`'s question, judged by the caller
    /// (``GeoQR/Challenge/accepts(_:)``): `correct` wins the challenge's points, wrong loses its
    /// penalty. Once: an answer id sent again, or any answer to a solved question, answers what
    /// was recorded and writes nothing.
    ///
    /// - throws: ``GeoQR/GameRuleViolation/noChallenge(_:)``, `challengeNotFound` (no live find of
    ///   the cache), `noTriesLeft`, `unknownPlayer`.
    public func answerChallenge(cache: String, correct: Bool, by player: String, answerID: String?, answeredAt: Date?,
                                in hunt: Hunt, at time: Date) async throws -> ChallengeAnswer {
        guard let site = hunt.cache(id: cache), let challenge = site.challenge, case .question = challenge.kind else {
            throw GameRuleViolation.noChallenge(cache)
        }
        let huntID = hunt.id
        return try await perform(LedgerAct { facts in
            let playerID = try facts.requireFinder(hunt: huntID, player, of: site.id)
            let before = try facts.challengeState(hunt: huntID, player: playerID, cache: site.id)
            if let answerID, let sent = try facts.row("""
                SELECT correct, points FROM challenge_answers WHERE hunt = ? AND player_id = ? AND answer_id = ?
                """, huntID, playerID, answerID) {
                return .answer(ChallengeAnswer(correct: sent["correct"], points: sent["points"], state: before, isNew: false))
            }
            if before.solved { return .answer(ChallengeAnswer(correct: true, points: 0, state: before, isNew: false)) }
            guard before.wrong < challenge.tries else { throw GameRuleViolation.noTriesLeft(site.id) }
            let points = correct ? challenge.points : -challenge.penalty
            let answered = NewEvent(.challengeAnswered, hunt: huntID, actor: playerID, at: time) { _ in
                ChallengeAnswered(player: playerID, cache: site.id, correct: correct, points: points, answerId: answerID,
                                  answeredMs: answeredAt.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) })
            }
            return Decision(events: [answered]) { facts, _ in
                ChallengeAnswer(correct: correct, points: points,
                                state: try facts.challengeState(hunt: huntID, player: playerID, cache: site.id), isNew: true)
            }
        })
    }

    /// Where `player` stands with every question they answered, by cache.
    public func challengeStates(hunt: String, player: String) async throws -> [String: ChallengeState] {
        let hunt = hunt.uppercased()
        return try await query(LedgerRead { facts in
            let id = try facts.requirePlayer(hunt: hunt, player)
            var states: [String: ChallengeState] = [:]
            for row in try facts.rows("""
                SELECT cache_id, MAX(correct) AS solved, CAST(COUNT(*) - SUM(correct) AS BIGINT) AS wrong,
                       CAST(SUM(points) AS BIGINT) AS points
                FROM challenge_answers WHERE hunt = ? AND player_id = ? GROUP BY cache_id
                """, hunt, id) {
                let cache: String = row["cache_id"]
                states[cache] = ChallengeState(cache: cache, solved: (row["solved"] as Int) != 0, wrong: row["wrong"], points: row["points"])
            }
            return states
        })
    }
}

extension FactReader {
    func challengeState(hunt: String, player: String, cache: String) throws -> ChallengeState {
        let rows = try self.rows("SELECT correct, points FROM challenge_answers WHERE hunt = ? AND player_id = ? AND cache_id = ?",
                                 hunt, player, cache)
        return ChallengeState(cache: cache, solved: rows.contains { $0["correct"] as Bool },
                              wrong: rows.filter { !($0["correct"] as Bool) }.count,
                              points: rows.reduce(0) { $0 + ($1["points"] as Int) })
    }
}
