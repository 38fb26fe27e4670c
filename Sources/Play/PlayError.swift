import Foundation
import GeoQR

/// Why an action could not start, before the game's own rules were asked.
public enum PlayError: Error, Equatable, CustomStringConvertible {
    /// The hunt has no secret in this data directory: no code could be checked.
    case noSecret(String)
    /// The game master has stopped the hunt: claims, trades and trackables wait.
    case huntStopped
    /// A broadcast must say something, briefly.
    case badBroadcast
    /// Several trackables share this name: name one by id.
    case ambiguousTrackable(String, ids: [String])
    /// What was typed has not the shape of a typed code (``GeoQR/TypedCode``).
    case notATypedCode
    /// Too many wrong typed codes from this player (``GeoQR/PINPolicy/typedCodes``).
    case typingLockedOut(until: Date)
    /// A claim kept on a phone with no network arrived later after its scan than the hunt's
    /// ``GeoQR/Hunt/offlineGraceMinutes`` allow.
    case tooLate(minutes: Int, grace: Int)
    /// A claim id is 1 to 64 letters, digits, `-` or `_`.
    case badClaimID

    public var code: String {
        switch self {
        case .noSecret: "no-secret"
        case .huntStopped: "hunt-stopped"
        case .badBroadcast: "bad-message"
        case .ambiguousTrackable: "ambiguous-trackable"
        case .notATypedCode: "bad-typed-code"
        case .typingLockedOut: "typing-locked-out"
        case .tooLate: "claim-too-late"
        case .badClaimID: "bad-claim-id"
        }
    }

    /// What went wrong, in English (``phrase`` for the reader's language).
    public var description: String { phrase.description }

    /// The refusal as a ``Phrase`` (`error.` and its ``code``), for a player's language.
    public var phrase: Phrase {
        switch self {
        case .noSecret(let hunt): Phrase("error." + code, ["hunt": .text(hunt)])
        case .huntStopped, .notATypedCode, .badClaimID: Phrase("error." + code)
        case .typingLockedOut(let until): Phrase("error." + code, ["time": .text(ISO8601DateFormatter().string(from: until))])
        case .tooLate(let minutes, let grace): Phrase("error." + code, ["minutes": .integer(minutes), "grace": .integer(grace)])
        case .badBroadcast: Phrase("error." + code, ["max": .integer(GameMasterActs.broadcastLimit)])
        case .ambiguousTrackable(let name, let ids):
            Phrase("error." + code, ["count": .integer(ids.count), "name": .text(name), "ids": .text(ids.joined(separator: ", "))])
        }
    }
}
