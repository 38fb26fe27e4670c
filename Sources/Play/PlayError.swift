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

    public var description: String {
        switch self {
        case .noSecret(let hunt): "hunt \(hunt) has no secret here: no codes were printed with this data directory"
        case .huntStopped: "the game master has stopped the hunt for now"
        case .badBroadcast: "a broadcast has 1 to \(GameMasterActs.broadcastLimit) characters"
        case .ambiguousTrackable(let name, let ids):
            "\(ids.count) trackables are called \(name): name one by id (\(ids.joined(separator: ", ")))"
        }
    }
}
