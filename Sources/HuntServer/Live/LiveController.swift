import Foundation
import Hummingbird
import NIOCore

/// `GET /api/live?token=…`: the player's server-sent event stream. The token is in the query
/// because a browser's EventSource cannot send headers. The stream opens with the current
/// leaderboard and carries a comment every 15 s so dead connections are noticed.
///
/// The control room's stream, `GET /api/admin/live`, is the same with the admin token in the
/// `Authorization` header (the page reads it with `fetch`, so the token never sits in a URL or
/// a server log); it also carries every claim as it is judged and every player's position.
struct LiveController {
    let session: HuntSession

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        group.get("live", use: stream)
    }

    @Sendable func stream(_ request: Request, context: HuntRequestContext) async throws -> Response {
        guard let token = request.uri.queryParameters["token"].map(String.init) else { throw APIError.noToken }
        guard let player = await session.tokens.player(for: token) else { throw APIError.badToken }
        return try await stream(for: .player(player))
    }

    /// The stream of one listener, opening with the leaderboard.
    func stream(for listener: Listener) async throws -> Response {
        let live = session.live
        let (id, events) = await live.subscribe(listener)
        let standings = try await session.standings.value()
        let opening = LiveEvent(name: "leaderboard", value: standings)
        let body = ResponseBody { writer in
            let heartbeat = Task {
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(15))
                    await live.send(LiveEvent(name: "ping", value: [String: String]()), toStream: id)
                }
            }
            defer { heartbeat.cancel() }
            do {
                try await writer.write(ByteBuffer(string: "retry: 3000\n\n" + opening.wire))
                for await event in events {
                    try await writer.write(ByteBuffer(string: event.wire))
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
