/// What an event records. The raw values are stored in the `kind` column and never change.
public enum EventKind: String, Sendable, CaseIterable, Codable {
    case playerJoined = "player-joined"
    case pinChecked = "pin-checked"
    case claimAttempted = "claim-attempted"
    case findRecorded = "find-recorded"
    case trackableSeeded = "trackable-seeded"
    case trackablePickedUp = "trackable-picked-up"
    case trackableDropped = "trackable-dropped"
    case tradeOffered = "trade-offered"
    case tradeAccepted = "trade-accepted"
    case tradeClosed = "trade-closed"
    case reportFiled = "report-filed"
    case reportResolved = "report-resolved"
    case findVoided = "find-voided"
    case pointsAdjusted = "points-adjusted"
    case cacheAvailability = "cache-availability"
    case secretRotated = "secret-rotated"
}
