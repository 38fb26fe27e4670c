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

    public var code: String {
        switch self {
        case .noSecret: "no-secret"
        case .huntStopped: "hunt-stopped"
        case .badBroadcast: "bad-message"
        case .ambiguousTrackable: "ambiguous-trackable"
        }
    }

    /// What went wrong, in English (``phrase`` for the reader's language).
    public var description: String { phrase.description }

    /// The refusal as a ``Phrase`` (`error.` and its ``code``), for a player's language.
    public var phrase: Phrase {
        switch self {
        case .noSecret(let hunt): Phrase("error." + code, ["hunt": .text(hunt)])
        case .huntStopped: Phrase("error." + code)
        case .badBroadcast: Phrase("error." + code, ["max": .integer(GameMasterActs.broadcastLimit)])
        case .ambiguousTrackable(let name, let ids):
            Phrase("error." + code, ["count": .integer(ids.count), "name": .text(name), "ids": .text(ids.joined(separator: ", "))])
        }
    }
}
