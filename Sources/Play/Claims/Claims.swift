import Foundation
import GeoQR
import Ledger
import QRImaging

extension Game {
    /// A player claims with a photo of a cache code: every code in it is judged (genuine, this
    /// hunt's, inside the time window, near its cache, by the photo's EXIF position or else
    /// `fallback`) and recorded: a claimable one becomes a find, any other an attempt. The photo
    /// is read on the picture pool, one at a time for a player; a picture costlier than
    /// `limits` allow is refused before anything is recorded (nothing of a picture bomb is kept).
    ///
    /// ```swift
    /// let answers = try await game.claimPhoto(jpeg, by: "P3", fallback: browserPosition).value
    /// answers.best.verdict    // .claimable
    /// answers.best.message    // the cache's message, revealed
    /// ```
    public func claimPhoto(_ bytes: Data, by player: String, fallback: ClaimLocation? = nil,
                           limits: PictureLimits = PictureLimits()) async throws -> Outcome<ClaimAnswers> {
        let photo = try await PhotoEvidence.read(bytes, limits: limits, for: pictureOwner(player))
        return try await claim(photo.claim(fallback: fallback, now: clock()), method: .photo, evidence: photo.evidence, by: player)
    }

    /// A player claims with a camera frame their phone sent, located by the browser. A frame
    /// with no GeoQR code in it is answered but not recorded: a camera sends several a second
    /// while its player aims. For the same reason a refusal (too far, forged…) is recorded once
    /// a minute per cache and verdict (``RepeatedRefusals``), here and for codes the phone
    /// decoded itself (`claimCode(method: .camera)`).
    ///
    /// ```swift
    /// let answer = try await game.claimFrame(jpeg, at: here, by: "P3").value.best
    /// ```
    public func claimFrame(_ bytes: Data, at location: ClaimLocation?, by player: String,
                           limits: PictureLimits = PictureLimits()) async throws -> Outcome<ClaimAnswers> {
        let codes = try await FrameEvidence.read(bytes, limits: limits, for: pictureOwner(player)).codes
        let claim = Claim(payloads: codes, location: location, claimedAt: clock())
        return try await self.claim(claim, method: .camera, evidence: ClaimEvidence(), by: player,
                                    recordNoCode: false)
    }

    /// A player claims with a code's text: a claim link opened by the phone's own camera app
    /// (`method: .link`), a code the phone decoded itself (`.camera`), or the short code printed
    /// under the QR, typed (`.typed`, ``GeoQR/TypedCode``), located by the browser.
    ///
    /// A phone with no network keeps the claim and sends it later with `sending`: it is judged
    /// at the time and place it was scanned, refused when it arrives later after the scan than
    /// the hunt's ``GeoQR/Hunt/offlineGraceMinutes``, recorded once however often it is sent,
    /// and marked late for the game master. Wrong typed codes count towards a lockout
    /// (``GeoQR/PINPolicy/typedCodes``), so they cannot be guessed.
    ///
    /// ```swift
    /// let answer = try await game.claimCode("GQ1.DEMO.A1.…", at: here, method: .link, by: "P3").value.best
    /// let typed = try await game.claimCode("A1-7KQ2-M9XD", at: here, method: .typed, by: "P3",
    ///                                      sending: Sending(claimID: "k3j5…", scannedAt: tenMinutesAgo)).value.best
    /// typed.lateSeconds   // 600
    /// ```
    public func claimCode(_ code: String, at location: ClaimLocation?, method: ClaimMethod,
                          by player: String, sending: Sending = .now) async throws -> Outcome<ClaimAnswers> {
        let now = clock()
        let scan = try sending.scan(now: now, grace: hunt.offlineGraceMinutes)
        var location = location
        if scan.late { location?.time = scan.time }
        func claim(of payload: String) -> Claim {
            Claim(payloads: [payload], location: location, takenAt: scan.late ? scan.time : nil, claimedAt: now)
        }
        guard method == .typed else {
            return try await self.claim(claim(of: code.uppercased()), method: method, evidence: ClaimEvidence(), by: player,
                                        sending: sending, late: scan.lateSeconds)
        }
        guard let typedCode = TypedCode(typed: code) else { throw PlayError.notATypedCode }
        let claim = claim(of: typedCode.text)
        let guess = Guesses.Subject.typedCode(player: player)
        do { try await guesses.check(guess, at: now) } catch GameRuleViolation.lockedOut(let until) {
            throw PlayError.typingLockedOut(until: until)
        }
        let outcome = try await self.claim(claim, method: .typed, evidence: ClaimEvidence(), by: player, sending: sending,
                                           late: scan.lateSeconds, typed: true)
        // Only a find clears the count: a forged code between valid ones ("too far", "already
        // found") would otherwise reset it, and forgeries could go on for ever.
        switch outcome.value.best.verdict {
        case .forged: try await guesses.failed(guess, at: now)
        case .claimable: try await guesses.succeeded(guess)
        default: break
        }
        return outcome
    }

    /// Where every claim ends: judge each code with the hunt's rules, record each judgement
    /// for the player, and answer with what the ledger made of it.
    ///
    /// The find's time is the scan time (the photo's GPS time, else its camera time, else the
    /// moment of claiming; never later than now): that is when the player stood at the cache,
    /// and the hunt's window is checked against it. It never decides who was first to find:
    /// the ledger's order does, so a backdated photo cannot win first-to-find.
    func claim(_ claim: Claim, method: ClaimMethod, evidence: ClaimEvidence, by player: String,
               recordNoCode: Bool = true, sending: Sending = .now, late: Int? = nil, typed: Bool = false) async throws -> Outcome<ClaimAnswers> {
        try await requireRunning()
        let secret = try requireSecret()
        var answers: [ClaimAnswer] = [], effects: [Effect] = []
        // A typed code is judged as typed: the photo rules' filter for GeoQR-looking text would
        // take it for some other QR's.
        let judgements = typed ? claim.payloads.map { hunt.judge($0, secret: secret, claim: claim) } : hunt.judge(claim, secret: secret)
        for judgement in judgements {
            var answer = ClaimAnswer(judgement: judgement, hunt: hunt)
            answer.lateSeconds = late
            if judgement.verdict == .noCode, !recordNoCode {
                answers.append(answer)
                continue
            }
            // A camera held at a code it may not claim repeats the refusal several times a second.
            if method == .camera, judgement.verdict != .claimable,
               !repeatedRefusals.isNew(player: player, cache: judgement.cacheID, verdict: judgement.verdict, at: claim.claimedAt) {
                answers.append(answer)
                continue
            }
            let record = ClaimRecord(player: player, hunt: huntID, cache: judgement.cacheID,
                                     time: min(judgement.scanTime, claim.claimedAt),
                                     location: judgement.location?.coordinate, method: method, evidence: evidence,
                                     verdict: judgement.verdict, claimID: sending.claimID, lateSeconds: late)
            let outcome = try await store.record(record, in: hunt, at: claim.claimedAt)
            answer.apply(outcome, hunt: hunt)
            if case .found(let find, let points, _) = outcome {
                effects += [.findsChanged(player: find.player), .found(find, points: points), .standingsChanged]
            }
            if case .resent = outcome {} else {
                effects.append(.claimJudged(record, verdict: answer.verdict, find: answer.find, points: answer.points))
            }
            answers.append(answer)
        }
        return Outcome(ClaimAnswers(answers), effects: effects)
    }
}

/// How a phone sends a claim: at once, or later, kept while it had no network.
///
/// ```swift
/// let later = Sending(claimID: "0f9c2d7e-…", scannedAt: scanTime)
/// ```
public struct Sending: Sendable, Equatable {
    /// The phone's random id for the claim, so that sending it twice records it once.
    public var claimID: String?
    /// When it was scanned, by the phone's clock; nil when sent as it is scanned.
    public var scannedAt: Date?

    public init(claimID: String? = nil, scannedAt: Date? = nil) {
        self.claimID = claimID
        self.scannedAt = scannedAt
    }

    /// A claim sent as it is scanned.
    public static let now = Sending()

    /// A claim that arrives within this long of its scan is not late: the phone's clock and
    /// the trip to the server take that much.
    static let onTime: TimeInterval = 60

    /// When the scan was (never after now), whether it counts as late, and how late; throws
    /// when it is later than the hunt's grace or the claim id is malformed.
    func scan(now: Date, grace minutes: Int) throws(PlayError) -> (time: Date, late: Bool, lateSeconds: Int?) {
        if let claimID {
            let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
            guard (1...64).contains(claimID.count), claimID.allSatisfy(allowed.contains) else { throw .badClaimID }
        }
        guard let scannedAt else { return (now, false, nil) }
        let time = min(scannedAt, now)
        let delay = now.timeIntervalSince(time)
        if delay > TimeInterval(minutes) * 60 { throw .tooLate(minutes: Int(delay / 60), grace: minutes) }
        return delay < Self.onTime ? (now, false, nil) : (time, true, Int(delay))
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
