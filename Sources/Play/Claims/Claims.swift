import Foundation
import GeoQR
import Ledger
import QRImaging

extension Game {
    /// A player claims with a photo of a cache code: every code in it is judged (genuine, this
    /// hunt's, inside the time window, near its cache, by the photo's EXIF position or else
    /// `fallback`) and recorded: a claimable one becomes a find, any other an attempt.
    ///
    /// ```swift
    /// let answers = try await game.claimPhoto(jpeg, by: "P3", fallback: browserPosition).value
    /// answers.best.verdict    // .claimable
    /// answers.best.message    // the cache's message, revealed
    /// ```
    public func claimPhoto(_ bytes: Data, by player: String, fallback: ClaimLocation? = nil,
                           limits: PictureLimits = PictureLimits()) async throws -> Outcome<ClaimAnswers> {
        let photo = try PhotoEvidence(bytes: bytes, limits: limits)
        return try await claim(photo.claim(fallback: fallback, now: clock()), method: .photo, evidence: photo.evidence, by: player)
    }

    /// A player claims with a camera frame their phone sent, located by the browser. A frame
    /// with no GeoQR code in it is answered but not recorded: a camera sends several a second
    /// while its player aims.
    ///
    /// ```swift
    /// let answer = try await game.claimFrame(jpeg, at: here, by: "P3").value.best
    /// ```
    public func claimFrame(_ bytes: Data, at location: ClaimLocation?, by player: String,
                           limits: PictureLimits = PictureLimits()) async throws -> Outcome<ClaimAnswers> {
        let codes = try FrameEvidence(bytes: bytes, limits: limits).codes
        let claim = Claim(payloads: codes, location: location, claimedAt: clock())
        return try await self.claim(claim, method: .camera, evidence: ClaimEvidence(), by: player,
                                    recordNoCode: false)
    }

    /// A player claims with a code's text: a claim link opened by the phone's own camera app
    /// (`method: .link`), or a code the phone decoded itself (`.camera`), located by the
    /// browser.
    ///
    /// ```swift
    /// let answer = try await game.claimCode("GQ1.DEMO.A1.…", at: here, method: .link, by: "P3").value.best
    /// ```
    public func claimCode(_ code: String, at location: ClaimLocation?, method: ClaimMethod,
                          by player: String) async throws -> Outcome<ClaimAnswers> {
        let claim = Claim(payloads: [code.uppercased()], location: location, claimedAt: clock())
        return try await self.claim(claim, method: method, evidence: ClaimEvidence(), by: player)
    }

    /// Where every claim ends: judge each code with the hunt's rules, record each judgement
    /// for the player, and answer with what the ledger made of it.
    ///
    /// The find's time is the scan time (the photo's GPS time, else its camera time, else the
    /// moment of claiming; never later than now): that is when the player stood at the cache,
    /// and the hunt's window is checked against it. It never decides who was first to find:
    /// the ledger's order does, so a backdated photo cannot win first-to-find.
    func claim(_ claim: Claim, method: ClaimMethod, evidence: ClaimEvidence, by player: String,
               recordNoCode: Bool = true) async throws -> Outcome<ClaimAnswers> {
        try await requireRunning()
        let secret = try requireSecret()
        var answers: [ClaimAnswer] = [], effects: [Effect] = []
        for judgement in hunt.judge(claim, secret: secret) {
            var answer = ClaimAnswer(judgement: judgement, hunt: hunt)
            if judgement.verdict == .noCode, !recordNoCode {
                answers.append(answer)
                continue
            }
            let record = ClaimRecord(player: player, hunt: huntID, cache: judgement.cacheID,
                                     time: min(judgement.scanTime, claim.claimedAt),
                                     location: judgement.location?.coordinate, method: method, evidence: evidence,
                                     verdict: judgement.verdict)
            let outcome = try await store.record(record, in: hunt, at: claim.claimedAt)
            answer.apply(outcome, hunt: hunt)
            if case .found(let find, let points, _) = outcome {
                effects += [.findsChanged(player: find.player), .found(find, points: points), .standingsChanged]
            }
            effects.append(.claimJudged(answer, player: player, method: method))
            answers.append(answer)
        }
        return Outcome(ClaimAnswers(answers), effects: effects)
    }
}

/// The answers to one claim, one per code, in the order decoded; the phone shows ``best``.
public struct ClaimAnswers: Sendable, Equatable {
    public var all: [ClaimAnswer]

    public init(_ all: [ClaimAnswer]) {
        precondition(!all.isEmpty, "a claim has at least one answer (no-code when nothing was read)")
        self.all = all
    }

    /// Several codes in one picture: a find (new or earlier) first, then the nearest miss.
    public var best: ClaimAnswer {
        all.first { $0.isFind } ?? all.min { ($0.distanceM ?? .infinity) < ($1.distanceM ?? .infinity) }!
    }

    /// True when any code became a find, now or before.
    public var anyFind: Bool { all.contains(where: \.isFind) }

    /// The rules' answers to a claim, without recording it (`geoqr scan`, `geoqr watch`).
    ///
    /// ```swift
    /// let answers = ClaimAnswers.judging(photo.claim(fallback: at, now: Date()), in: hunt, secret: secret)
    /// ```
    public static func judging(_ claim: Claim, in hunt: Hunt, secret: HuntSecret) -> ClaimAnswers {
        ClaimAnswers(hunt.judge(claim, secret: secret).map { ClaimAnswer(judgement: $0, hunt: hunt) })
    }
}
