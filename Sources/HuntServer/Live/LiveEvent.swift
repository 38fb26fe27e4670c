import Foundation
import GeoQR
import NIOCore

/// One server-sent event: its name (`find`, `trade-offer`, `standings`, `rank`, `broadcast`,
/// `proximity`, …) and its JSON data; and, for news of a ledger event, that event's seq as the
/// event's `id`, which a browser sends back as `Last-Event-ID` when it reconnects (see
/// ``LiveController``). It is encoded for the wire once, when made: every stream it goes to
/// writes the same bytes.
public struct LiveEvent: Sendable, Equatable {
    public let name: String
    public let json: String
    /// The seq of the ledger event this is news of; nil for what the ledger does not hold
    /// (the standings as they stand, a proximity hint, a heartbeat).
    public let id: Int64?
    /// The event as it goes on the wire.
    let wire: ByteBuffer

    /// An event whose data is `value` encoded as JSON.
    public init(name: String, value: some Encodable, id: Int64? = nil) {
        let json = (try? Self.encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        self.init(name: name, json: json, id: id)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    /// An event whose data is already JSON (news another server published, or written with
    /// ``GeoQR/JSONWriter``).
    init(name: String, json: String, id: Int64? = nil) {
        self.name = name
        self.json = json
        self.id = id
        self.wire = ByteBuffer(string: (id.map { "id: \($0)\n" } ?? "") + "event: \(name)\ndata: \(json)\n\n")
    }

    /// Which place it takes in a stream's mailbox: news waits in order; a newer standings or
    /// rank replaces the one waiting.
    var slot: LiveMailboxSlot {
        switch name {
        case Self.finds: .finds
        case Self.standings: .standings
        case Self.rank: .rank
        default: .news
        }
    }

    /// The names of the standings' two events (``StandingsNews``).
    static let standings = "standings", rank = "rank"
    /// The name of the digest of finds every stream hears (``FindDigest``).
    static let finds = "finds"
}

/// Finds every stream hears, coalesced: how many there were since the stream's last digest,
/// the latest few as their `find` news tells them, and the seq of the newest (`through`), so a
/// stream that hears a digest has heard of every find up to it. A phone shows one line ("Ada
/// found the old oak! 12 finds just now"), not a toast per find: with thousands of players a
/// find a second each was more than a phone could show and, sent to every stream, the server's
/// whole work. ``LiveEvents`` makes one per lane's turn, shared by the lane's streams.
///
/// ```
/// event: finds
/// data: {"count":12,"finds":[{"cache":"A7","cacheName":"Old oak","firstToFind":false,…}],"through":4812}
/// ```
struct FindDigest: Sendable {
    /// How many finds a digest names.
    static let named = 3

    let count: Int
    /// The latest finds, oldest first: `named` of them at most.
    let latest: ArraySlice<LiveEvent>
    let through: Int64

    /// The digest as it goes on the wire, oldest of the named finds first.
    var event: LiveEvent {
        LiveEvent(name: LiveEvent.finds,
                  json: #"{"count":\#(count),"finds":[\#(latest.suffix(Self.named).map(\.json).joined(separator: ","))],"through":\#(through)}"#)
    }
}

/// Where a ``LiveEvent`` waits in a stream's ``LiveMailbox``.
enum LiveMailboxSlot: Sendable {
    case news, finds, standings, rank
}

