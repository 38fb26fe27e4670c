import Foundation
import Ledger
import Logging

/// What one server tells the others on the same store that the ledger does not hold: a
/// game-master message to every player, and what the control room sees (claims as they are
/// judged, refused ones included; players' positions and phone checks; who signed in). The
/// ledger's own news every server reads from the events table (``LedgerFollower``); this goes
/// through the store's ``Ledger/GameStore/publish(news:)`` (PostgreSQL's NOTIFY), so a control
/// room open on one server sees what happens on every one, and a message reaches every phone.
///
/// ```swift
/// await session.tellEveryServer(LiveEvent(name: "broadcast", value: message), to: .everyone)
/// ```
struct ServerNews: Codable, Sendable {
    /// The server that published it (``ServedHunt/serverID``), which has sent it already.
    var origin: String
    var hunt: String
    var audience: Audience
    var name: String
    var json: String
}

extension ServedHunt {
    /// Sends to the streams open here and publishes to every other server on the store, in the
    /// background (``NewsPublisher``): a player's answer does not wait for it.
    func tellEveryServer(_ event: LiveEvent, to audience: Audience) async {
        await live.send(event, to: audience)
        tellOtherServers(event, to: audience)
    }

    /// Tells the other servers that `player` signed out here (one session or all): they forget
    /// the sign-ins they kept for the player (``CheckedSignIns``) and check again with the
    /// store. No phone hears it, and no token goes out: only the player's id.
    func tellOtherServers(signedOut player: String) {
        tellOtherServers(LiveEvent(name: Self.signedOutNews, value: ["player": player]), to: .gameMaster)
    }

    /// The name of ``tellOtherServers(signedOut:)``'s news.
    static let signedOutNews = "signed-out"

    private func tellOtherServers(_ event: LiveEvent, to audience: Audience) {
        guard othersHear else { return }
        let news = ServerNews(origin: serverID, hunt: hunt.id, audience: audience, name: event.name, json: event.json)
        do {
            newsOut.tell(String(decoding: try JSONEncoder().encode(news), as: UTF8.self))
        } catch {
            logger.warning("news for the other servers could not be encoded: \(error)")
        }
    }

    /// News another server published: sent to the streams open here, and what the control
    /// room's overview lists (positions, phone checks) kept as if it had come here.
    func heard(news payload: String) async {
        for news in NewsPublisher.unpack(payload) { await heard(news) }
    }

    private func heard(_ news: ServerNews) async {
        guard news.origin != serverID, news.hunt == hunt.id else { return }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        switch news.name {
        case "position":
            if let fix = try? decoder.decode(PositionFix.self, from: Data(news.json.utf8)) {
                await whereabouts.report(player: fix.player, latitude: fix.latitude, longitude: fix.longitude,
                                         accuracy: fix.accuracyM, time: fix.at)
            }
        case "readiness":
            if let check = try? decoder.decode(PhoneCheck.self, from: Data(news.json.utf8)) { await readiness.report(check) }
        case Self.signedOutNews:
            struct SignedOut: Decodable { var player: String }
            if let out = try? decoder.decode(SignedOut.self, from: Data(news.json.utf8)) { signedIn.forget(player: out.player) }
            return   // for the servers only
        default: break
        }
        await live.send(LiveEvent(name: news.name, json: news.json), to: news.audience)
    }
}

/// Publishes a server's news for the others in the order it was told, one NOTIFY at a time, off
/// the requests' path. News told while one is being sent goes out together in the next, as one
/// JSON array of up to ``Ledger/maxNewsBytes``: under load a NOTIFY a claim would cost more round
/// trips than the claim's own writes.
///
/// ```swift
/// let out = NewsPublisher { payload in try await store.publish(news: payload) }
/// out.tell(#"{"origin":"…","name":"claim",…}"#)
/// ```
final class NewsPublisher: Sendable {
    private let batcher: Batcher<String>

    init(publish: @escaping @Sendable (String) async throws -> Void) {
        let logger = Logger(label: "geoqr.news")
        batcher = Batcher(maxBatch: .max, .task(yieldFirst: false) { items in
            for payload in Self.pack(items) {
                do { try await publish(payload) } catch { logger.warning("news for the other servers was not published: \(error)") }
            }
        })
    }

    /// Queues one news item (a ``ServerNews`` as JSON) for the other servers.
    func tell(_ item: String) {
        batcher.submit(item)
    }

    /// Items as JSON arrays of at most `limit` bytes each, in order; an item too long alone is left out.
    static func pack(_ items: [String], limit: Int = maxNewsBytes) -> [String] {
        var payloads: [String] = []
        var current = ""
        for item in items where item.utf8.count + 2 <= limit {
            if !current.isEmpty && current.utf8.count + 1 + item.utf8.count + 1 > limit {
                payloads.append("[" + current + "]")
                current = ""
            }
            current += current.isEmpty ? item : "," + item
        }
        if !current.isEmpty { payloads.append("[" + current + "]") }
        return payloads
    }

    /// The news in a payload: an array of them, or one (as servers of the release before sent).
    static func unpack(_ payload: String) -> [ServerNews] {
        let data = Data(payload.utf8)
        if let many = try? JSONDecoder().decode([ServerNews].self, from: data) { return many }
        return (try? JSONDecoder().decode(ServerNews.self, from: data)).map { [$0] } ?? []
    }
}
