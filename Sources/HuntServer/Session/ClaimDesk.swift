import Foundation
import GeoQR
import Ledger

/// Where every claim ends, however it came in (photo, camera frame, link): judge the decoded
/// codes with the hunt's rules, record the claim in the ledger, tell the listeners, and say
/// what the phone should show.
///
/// ```swift
/// let result = try await ClaimDesk(session: session).claim(
///     payloads: ["GQ1.DEMO.A1.…"], location: here, method: .link, player: "P3")
/// result.verdict   // "claimable"
/// result.message   // the cache's message, revealed
/// ```
struct ClaimDesk {
    let session: HuntSession

    /// Judges and records a claim. A camera frame with no GeoQR code in it is answered but not
    /// recorded: a camera sends several a second while the player is still aiming.
    func claim(payloads: [String], location: ClaimLocation?, takenAt: Date? = nil, method: ClaimMethod,
               evidence: ClaimEvidence = ClaimEvidence(), player: String) async throws -> ClaimResult {
        try await session.state.requireRunning()
        let hunt = session.hunt
        let claim = Claim(payloads: payloads, location: location, takenAt: takenAt, claimedAt: session.now())
        let judgements = hunt.judge(claim, secret: session.secret)
        // Several codes in one picture: a find first, then the nearest miss.
        let judgement = judgements.first { $0.verdict == .claimable }
            ?? judgements.min { ($0.distance ?? .infinity) < ($1.distance ?? .infinity) }!
        var result = Self.result(judgement)
        if judgement.verdict == .noCode, method == .camera { return result }

        let record = ClaimRecord(player: player, hunt: hunt.id, cache: judgement.cacheID, time: claim.claimedAt,
                                 location: location?.coordinate, method: method, evidence: evidence,
                                 verdict: ClaimVerdictCode(rawValue: judgement.verdict.rawValue))
        let cache = judgement.cacheID.flatMap(hunt.cache(id:))
        switch try await session.store.record(record, in: hunt) {
        case .found(let find, let points, _):
            result.message = cache?.message
            result.points = points
            result.find = find.id
            result.first_to_find = find.firstToFind
            await session.found.changed(for: player)
            await announce(find, points: points)
        case .alreadyFound(let find):
            result.verdict = Verdict.alreadyFound.rawValue
            result.sentence = "You have already found \(cache?.name ?? find.cache)."
            result.message = cache?.message
            result.find = find.id
        case .attempt(let verdict):
            if verdict != ClaimVerdictCode(rawValue: judgement.verdict.rawValue) {
                result.verdict = verdict.rawValue
                result.sentence = verdict == .cacheDisabled
                    ? "\(cache?.name ?? "This cache") is closed by the game master for now."
                    : "This claim was not accepted (\(verdict.rawValue))."
            }
        }
        return result
    }

    /// Everyone listening hears of a find (the finder's page tells them apart by player id),
    /// then the new standings.
    private func announce(_ find: Find, points: Int) async {
        if await session.live.listenerCount > 0 {
            let name = (try? await session.players.player(id: find.player))?.name ?? find.player
            let cacheName = session.hunt.cache(id: find.cache)?.name ?? find.cache
            struct FindNews: Encodable { var player, name, cache, cache_name: String; var points: Int; var first_to_find: Bool }
            await session.live.send(LiveEvent(name: "find", value: FindNews(
                player: find.player, name: name, cache: find.cache, cache_name: cacheName,
                points: points, first_to_find: find.firstToFind)), to: nil)
        }
        await session.broadcastLeaderboard()
    }

    static func result(_ j: ClaimJudgement) -> ClaimResult {
        ClaimResult(verdict: j.verdict.rawValue, sentence: j.sentence, cache: j.cacheID, cache_name: j.cacheName,
                    distance_m: j.distance.map(Self.tenths), bearing_deg: j.bearing.map(Self.tenths),
                    direction: j.direction?.name, radius_m: j.radius, allowed_m: j.allowed,
                    location_source: j.location?.source.rawValue)
    }

    private static func tenths(_ v: Double) -> Double { (v * 10).rounded() / 10 }
}
