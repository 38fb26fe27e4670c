import Foundation

/// An event's body as the typed value its kind says it is: what readers outside the ledger
/// (the hunt server's index, `geoqr ledger show`) switch over instead of parsing JSON by keys.
///
/// ```swift
/// for event in try await store.events(after: 0, limit: 100) {
///     if case .tradeOffered(let body) = try event.decodedBody() { print(body.trade.from, body.trade.to) }
/// }
/// ```
public enum EventBody: Sendable, Equatable {
    case playerJoined(PlayerJoined)
    case pinChecked(PINChecked)
    case pinReset(PINReset)
    case claimAttempted(ClaimAttempted)
    case findRecorded(FindRecorded)
    case trackableSeeded(TrackableSeeded)
    case trackablePickedUp(TrackablePickedUp)
    case trackableDropped(TrackableDropped)
    case tradeOffered(TradeOffered)
    case tradeAccepted(TradeAccepted)
    case tradeClosed(TradeClosed)
    case reportFiled(ReportFiled)
    case reportResolved(ReportResolved)
    case findVoided(FindVoided)
    case pointsAdjusted(PointsAdjusted)
    case cacheAvailability(CacheAvailability)
    case secretRotated(SecretRotated)
    case huntStarted
    case huntStopped
    case hintRevealed(HintRevealed)
    case courseStarted(CourseStarted)
    case runnerDisqualified(RunnerDisqualified)
    case challengeAnswered(ChallengeAnswered)
    case photoSubmitted(PhotoSubmitted)
    case photoJudged(PhotoJudged)
    case positionsDropped(PositionsDropped)
    case playerForgotten(PlayerForgotten)

    /// The players this event names (the actor aside): a claimant, the two sides of a trade,
    /// a player given points.
    public var players: [String] {
        switch self {
        case .playerJoined(let b): [b.player]
        case .pinChecked(let b): [b.player]
        case .pinReset(let b): [b.player]
        case .claimAttempted(let b): [b.claim.player]
        case .findRecorded(let b): [b.claim.player]
        case .trackablePickedUp(let b): [b.player]
        case .trackableDropped(let b): [b.player]
        case .tradeOffered(let b): [b.trade.from, b.trade.to]
        case .tradeAccepted(let b): Array(Set(b.moves.flatMap { [$0.from, $0.to] })).sorted()
        case .reportFiled(let b): [b.player]
        case .pointsAdjusted(let b): [b.player]
        case .hintRevealed(let b): [b.player]
        case .runnerDisqualified(let b): [b.player]
        case .challengeAnswered(let b): [b.player]
        case .photoSubmitted(let b): [b.player]
        case .photoJudged(let b): [b.player]
        case .playerForgotten(let b): [b.player]
        default: []
        }
    }

    /// The caches this event is about.
    public var caches: [String] {
        switch self {
        case .claimAttempted(let b): b.claim.cache.map { [$0] } ?? []
        case .findRecorded(let b): b.claim.cache.map { [$0] } ?? []
        case .trackableSeeded(let b): [b.cache]
        case .trackablePickedUp(let b): [b.cache]
        case .trackableDropped(let b): [b.cache]
        case .reportFiled(let b): [b.cache]
        case .cacheAvailability(let b): [b.cache]
        case .hintRevealed(let b): [b.cache]
        case .challengeAnswered(let b): [b.cache]
        case .photoSubmitted(let b): [b.cache]
        case .photoJudged(let b): [b.cache]
        default: []
        }
    }
}

extension LedgerEvent {
    /// The body as its typed value; throws ``LedgerError/corrupt(_:)`` for an unknown kind or a
    /// body that is not what its kind says.
    public func decodedBody() throws -> EventBody {
        guard let kind = EventKind(rawValue: kind) else {
            throw LedgerError.corrupt("event \(seq) has an unknown kind \"\(self.kind)\"")
        }
        let text = body
        func read<T: Decodable>(_ type: T.Type) throws -> T {
            do { return try BodyCoding.decode(type, from: text) } catch {
                throw LedgerError.corrupt("event \(seq) (\(self.kind)) has a body that cannot be read: \(error)")
            }
        }
        switch kind {
        case .playerJoined: return .playerJoined(try read(PlayerJoined.self))
        case .pinChecked: return .pinChecked(try read(PINChecked.self))
        case .pinReset: return .pinReset(try read(PINReset.self))
        case .claimAttempted: return .claimAttempted(try read(ClaimAttempted.self))
        case .findRecorded: return .findRecorded(try read(FindRecorded.self))
        case .trackableSeeded: return .trackableSeeded(try read(TrackableSeeded.self))
        case .trackablePickedUp: return .trackablePickedUp(try read(TrackablePickedUp.self))
        case .trackableDropped: return .trackableDropped(try read(TrackableDropped.self))
        case .tradeOffered: return .tradeOffered(try read(TradeOffered.self))
        case .tradeAccepted: return .tradeAccepted(try read(TradeAccepted.self))
        case .tradeClosed: return .tradeClosed(try read(TradeClosed.self))
        case .reportFiled: return .reportFiled(try read(ReportFiled.self))
        case .reportResolved: return .reportResolved(try read(ReportResolved.self))
        case .findVoided: return .findVoided(try read(FindVoided.self))
        case .pointsAdjusted: return .pointsAdjusted(try read(PointsAdjusted.self))
        case .cacheAvailability: return .cacheAvailability(try read(CacheAvailability.self))
        case .secretRotated: return .secretRotated(try read(SecretRotated.self))
        case .huntStarted: return .huntStarted
        case .huntStopped: return .huntStopped
        case .hintRevealed: return .hintRevealed(try read(HintRevealed.self))
        case .courseStarted: return .courseStarted(try read(CourseStarted.self))
        case .runnerDisqualified: return .runnerDisqualified(try read(RunnerDisqualified.self))
        case .challengeAnswered: return .challengeAnswered(try read(ChallengeAnswered.self))
        case .photoSubmitted: return .photoSubmitted(try read(PhotoSubmitted.self))
        case .photoJudged: return .photoJudged(try read(PhotoJudged.self))
        case .positionsDropped: return .positionsDropped(try read(PositionsDropped.self))
        case .playerForgotten: return .playerForgotten(try read(PlayerForgotten.self))
        }
    }
}

extension LedgerEvent {
    /// The body's top level as `key=value` pairs (nested values as compact JSON), for a
    /// terminal: `cache=A2 claim={…} find=F12`.
    public var bodySummary: String {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] else { return body }
        return object.keys.sorted().map { key in
            let value = object[key]!
            if let s = value as? String { return "\(key)=\(s)" }
            let data = (try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])) ?? Data()
            return "\(key)=\(String(decoding: data, as: UTF8.self))"
        }.joined(separator: " ")
    }
}
