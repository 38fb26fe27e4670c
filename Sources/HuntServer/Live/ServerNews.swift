import Foundation
import Ledger

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
    /// The server that published it (``HuntSession/serverID``), which has sent it already.
    var origin: String
    var hunt: String
    var audience: Audience
    var name: String
    var json: String
}

extension HuntSession {
    /// Sends to the streams open here and publishes to every other server on the store.
    func tellEveryServer(_ event: LiveEvent, to audience: Audience) async {
        await live.send(event, to: audience)
        guard othersHear else { return }
        let news = ServerNews(origin: serverID, hunt: hunt.id, audience: audience, name: event.name, json: event.json)
        do {
            try await store.publish(news: String(decoding: try JSONEncoder().encode(news), as: UTF8.self))
        } catch {
            logger.warning("news for the other servers could not be published: \(error)")
        }
    }

    /// News another server published: sent to the streams open here, and what the control
    /// room's overview lists (positions, phone checks) kept as if it had come here.
    func heard(news payload: String) async {
        guard let news = try? JSONDecoder().decode(ServerNews.self, from: Data(payload.utf8)),
              news.origin != serverID, news.hunt == hunt.id else { return }
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
        default: break
        }
        await live.send(LiveEvent(name: news.name, json: news.json), to: news.audience)
    }
}
