import Foundation
import HTTPTypes
import Hummingbird
import Ledger
import NIOCore

/// `GET /api/live?token=…`: the player's server-sent event stream. The token is in the query
/// because a browser's EventSource cannot send headers. The stream opens with the standings'
/// top and the player's own rank (``StandingsNews``) and carries a `ping` every 15 s so dead
/// connections are noticed.
///
/// The control room's stream, `GET /api/admin/live`, is the same with the admin token in the
/// `Authorization` header (the page reads it with `fetch`, so the token never sits in a URL or
/// a server log); it also carries every claim as it is judged and every player's position.
///
/// News of the ledger (a find, a trade, a start or stop) carries the event's seq as its `id:`.
/// A browser that reconnects sends the last one back as `Last-Event-ID` (a client that cannot
/// set headers may pass `?lastEventId=`): the new stream first tells what that listener missed
/// since, read from the ledger, then goes on live, each event once and in order, whichever
/// server the reconnection reached. A resume from further back than ``ResumeLimits`` allows
/// (`?lastEventId=0` on a long hunt) is not replayed: the stream sends a `fresh-state` event
/// (with the ledger's last seq as its id) and the page loads its state again.
///
/// Opening a stream is rate-limited per player (``RateLimiter/Kind/streamOpen``), and one
/// sign-in token or client address holds only so many at once (``StreamLimits``).
struct LiveController {
    let session: ServedHunt

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        group.get("live", use: stream)
    }

    @Sendable func stream(_ request: Request, context: HuntRequestContext) async throws -> Response {
        guard let token = request.uri.queryParameters["token"].map(String.init) else { throw APIError.noToken }
        guard let player = try await session.signedIn.player(for: token) else { throw APIError.badToken }
        return try await stream(for: .player(player), token: token, request: request, context: context)
    }

    /// The stream of `listener`, signed in with `token` (counted per token and per the
    /// request's client address), resuming from the request's `Last-Event-ID`.
    func stream(for listener: Listener, token: String, request: Request, context: HuntRequestContext) async throws -> Response {
        let resuming = try Self.lastEventID(request)
        let who = switch listener { case .player(let id): "player " + id; case .gameMaster: "game master" }
        try session.limiter.admit(.streamOpen, client: who)
        // A loopback client is this machine (every player of a load test, or a proxy that names
        // no client): counted per token only, not as one address.
        let address = context.clientKey
        let counted = address.hasPrefix("127.") || address == "::1" || address == "local" ? nil : address
        return try await stream(for: listener, token: token, address: counted, resuming: resuming, channel: context.channel)
    }

    static let lastEventIDField = HTTPField.Name("Last-Event-ID")!

    /// The seq the client last heard, from `Last-Event-ID` (or `lastEventId=`); nil for a new stream.
    static func lastEventID(_ request: Request) throws -> Int64? {
        guard let text = request.headers[Self.lastEventIDField]
                ?? request.uri.queryParameters["lastEventId"].map(String.init), !text.isEmpty else { return nil }
        guard let seq = Int64(text.trimmingCharacters(in: .whitespaces)), seq >= 0 else {
            throw APIError.badRequest("bad-last-event-id", "Last-Event-ID: \(text.prefix(40)) is not an event id (a whole number from an earlier id: line)")
        }
        return seq
    }

    /// The stream of one listener, opening with the standings (and a player's own rank) and,
    /// when it resumes, the news of the ledger it missed after seq `resuming`. On `channel`,
    /// the connection the response goes out on, the opening goes through the response's
    /// writer and the rest straight to the connection (``LiveMailbox/writeDirectly(to:after:)``).
    func stream(for listener: Listener, token: String? = nil, address: String? = nil, resuming: Int64? = nil,
                channel: (any Channel)? = nil) async throws -> Response {
        let live = session.live
        // Subscribed before the ledger is read: what is appended meanwhile comes both ways,
        // and is sent once (by seq).
        let (id, mailbox) = try await live.subscribe(listener, token: token, address: address)
        var opening: [LiveEvent]
        var missed: [LiveEvent] = [], resumeFrom = resuming
        do {
            opening = try await session.standingsNews.opening(for: listener)
            if let resuming {
                if let news = try await session.news(after: resuming, for: listener) {
                    missed = news
                } else {
                    // Too far back: the page reloads its state; news from the head on follows.
                    let head = try await session.store.headSeq()
                    missed = [LiveEvent(name: "fresh-state", value: FreshState(reason: "resume-too-far-back", after: resuming), id: head)]
                    resumeFrom = head
                }
            }
        } catch {
            await live.unsubscribe(id)
            throw error
        }
        var first = ByteBuffer(string: "retry: 3000\n\n")
        for var event in opening.map(\.wire) { first.writeBuffer(&event) }
        let (told, from) = (missed, resumeFrom)
        let body = ResponseBody { [first] writer in
            do {
                try await writer.write(first)
                var lastSeq = from ?? 0
                for event in told {
                    try await writer.write(event.wire)
                    lastSeq = event.id ?? lastSeq
                }
                if let channel {
                    await mailbox.writeDirectly(to: channel, after: lastSeq)
                } else {
                    while let (bytes, last) = await mailbox.next(after: lastSeq) {
                        lastSeq = last
                        try await writer.write(bytes)
                    }
                }
            } catch {
                await live.unsubscribe(id)
                throw error
            }
            await live.unsubscribe(id)
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
    }
}

/// The `fresh-state` event: what the stream missed is not told, load the state again.
struct FreshState: Encodable {
    var reason: String
    /// The id the client resumed from.
    var after: Int64
}
