import Foundation
import GeoQR
import Ledger

extension Game {
    /// A finder answers a cache's question (cache by id or name). The answer is judged by the
    /// challenge (``GeoQR/Challenge/accepts(_:)``) and recorded once: right wins its points,
    /// wrong costs its penalty, until the tries run out. An answer kept on a phone with no
    /// network is sent later with its id and the time it was answered (as a late claim), within
    /// the hunt's grace; sent twice, it counts once.
    ///
    /// ```swift
    /// let answer = try await game.answerQuestion(cache: "A1", answer: "1911", by: "P3").value
    /// answer.correct   // true
    /// ```
    /// - throws: `noChallenge`, `cacheNotFoundByPlayer`, `noTriesLeft`, `textTooLarge` and the
    ///   other ``GeoQR/PlayerText`` refusals, ``PlayError/tooLate(minutes:grace:)``,
    ///   ``PlayError/huntStopped``.
    public func answerQuestion(cache name: String, answer: String, by player: String,
                               sending: Sending = .now) async throws -> Outcome<ChallengeAnswer> {
        let id = try hunt.cacheID(named: name)
        guard let challenge = hunt.cache(id: id)?.challenge, case .question = challenge.kind else {
            throw GameRuleViolation.noChallenge(id)
        }
        try PlayerText.answer.check(answer)
        guard answer.count <= Challenge.maxAnswerLength else {
            throw GameRuleViolation.textTooLong(field: "answer", limit: Challenge.maxAnswerLength)
        }
        let now = clock()
        let scan = try sending.scan(now: now, grace: hunt.offlineGraceMinutes)
        try await requireRunning()
        let recorded = try await store.answerChallenge(cache: id, correct: challenge.accepts(answer), by: player,
                                                       answerID: sending.claimID, answeredAt: scan.late ? scan.time : nil,
                                                       in: hunt, at: now)
        return Outcome(recorded, effects: recorded.isNew && recorded.points != 0 ? [.standingsChanged] : [])
    }

    /// Where `player` stands with each question they answered, by cache id.
    public func challengeStates(of player: String) async throws -> [String: ChallengeState] {
        guard hunt.caches.contains(where: { $0.challenge != nil }) else { return [:] }
        return try await store.challengeStates(hunt: huntID, player: player)
    }
}
