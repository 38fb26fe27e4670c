import Foundation
import GeoQR
import Play
import Ledger

/// What players and control rooms hear of a ledger event, whichever server (or `geoqr gm`
/// command) appended it: the live stream's news of the ledger is made only here, from the
/// events table, so every server tells the same news with the same ids (the events' seqs).
///
/// ```swift
/// for (news, audience) in try await session.news(of: event) { await live.send(news, to: audience) }
/// ```
extension ServedHunt {
    func news(of event: LedgerEvent) async throws -> [(LiveEvent, Audience)] {
        guard event.hunt == hunt.id else { return [] }
        switch try event.decodedBody() {
        case .findRecorded(let body):
            let name = try await players.player(id: body.claim.player)?.name ?? body.claim.player
            let cache = body.claim.cache ?? ""
            let find = LiveEvent(name: "find", value: FindNews(
                player: body.claim.player, name: name, cache: cache, cacheName: hunt.cache(id: cache)?.name ?? cache,
                points: body.points, firstToFind: body.firstToFind), id: event.seq)
            // The finder's phones hear it as ledger news (another tab, the outbox); everyone
            // hears it in the next digest of finds.
            return [(find, .players([body.claim.player])), (find, .digest)]
        case .tradeOffered(let body):
            return [(LiveEvent(name: "trade-offer", value: body.trade, id: event.seq), .players([body.trade.from, body.trade.to]))]
        case .tradeAccepted(let body):
            return try await tradeOutcome(body.trade, seq: event.seq)
        case .tradeClosed(let body):
            return try await tradeOutcome(body.trade, seq: event.seq)
        case .huntStarted, .huntStopped:
            let running = event.kind == EventKind.huntStarted.rawValue
            return [(LiveEvent(name: "broadcast", value: RunningNews(running: running), id: event.seq), .everyone)]
        case .courseStarted(let body):
            return [(LiveEvent(name: "course", value: CourseNews(course: body.course), id: event.seq), .everyone)]
        case .runnerDisqualified(let body):
            return [(LiveEvent(name: "course", value: CourseNews(course: body.course), id: event.seq),
                     .players([body.player])),
                    (LiveEvent(name: "course", value: CourseNews(course: body.course), id: event.seq), .gameMaster)]
        case .cacheAvailability, .reportFiled, .reportResolved:
            return [(LiveEvent(name: "stations", value: [String: String](), id: event.seq), .gameMaster)]
        case .photoSubmitted:
            return [(LiveEvent(name: "photo-tasks", value: [String: String](), id: event.seq), .gameMaster)]
        case .photoJudged(let body):
            return [(LiveEvent(name: "photo-task", value: PhotoTaskNews(cache: body.cache), id: event.seq), .players([body.player])),
                    (LiveEvent(name: "photo-tasks", value: [String: String](), id: event.seq), .gameMaster)]
        default:
            return []
        }
    }

    /// News that a course changed (a mass start, a disqualification): the page reloads its
    /// course or results.
    struct CourseNews: Codable, Sendable {
        var course: String
    }

    /// News that the game master judged one of the player's photos: the phone asks its task again.
    struct PhotoTaskNews: Codable, Sendable {
        var cache: String
    }

    /// A trade's news once it has an outcome: the trade as it stands, to both sides.
    private func tradeOutcome(_ id: String, seq: Int64) async throws -> [(LiveEvent, Audience)] {
        guard let trade = try await store.trade(hunt: hunt.id, id: id) else { return [] }
        return [(LiveEvent(name: "trade-outcome", value: trade, id: seq), .players([trade.from, trade.to]))]
    }

    /// What the server keeps of the ledger that `event` changed: forgotten, whoever wrote it.
    func forget(whatChangedWith event: LedgerEvent) async {
        guard event.hunt == hunt.id, let kind = EventKind(rawValue: event.kind) else { return }
        switch kind {
        case .huntStarted, .huntStopped: await state.changed()
        case .cacheAvailability, .reportFiled, .reportResolved: await cacheFlags.invalidate()
        case .findRecorded:
            if case .findRecorded(let body)? = try? event.decodedBody() { await found.changed(for: body.claim.player) }
            await broadcastLeaderboard()
        case .findVoided:
            found.changedForEveryone()
            await broadcastLeaderboard()
        case .playerJoined, .pointsAdjusted, .hintRevealed, .tradeAccepted, .photoJudged: await broadcastLeaderboard()
        // Also when `geoqr gm` forgot them, or dropped the positions, beside this server.
        case .playerForgotten:
            if case .playerForgotten(let body)? = try? event.decodedBody() {
                await forgetKept(of: body.player)
                await found.changed(for: body.player)
            }
            await cacheFlags.invalidate()
            await broadcastLeaderboard()
        case .positionsDropped: await whereabouts.clear()
        // The reset ended the player's sessions in the store: the kept sign-ins end here too.
        case .pinReset:
            if case .pinReset(let body)? = try? event.decodedBody() { signedIn.forget(player: body.player) }
        default: break
        }
    }

    /// News of the ledger events after `seq` for one listener, read from the store: what a
    /// stream that reconnects with `Last-Event-ID` missed. Nil when that reaches too far back
    /// (``ResumeLimits``): more events than a phone should replay, or older than a phone that
    /// is still playing would have missed; the stream then tells the page to load the state
    /// afresh instead (``LiveController``).
    func news(after seq: Int64, for listener: Listener, limits: ResumeLimits = ResumeLimits(),
              now: Date = Date()) async throws -> [LiveEvent]? {
        let events = try await store.events(after: seq, limit: limits.events + 1)
        guard events.count <= limits.events else { return nil }
        if let first = events.first, now.timeIntervalSince(first.time) > limits.age { return nil }
        var missed: [LiveEvent] = []
        for event in events {
            for (news, audience) in try await news(of: event) + claimNews(of: event) where audience.includes(listener) {
                missed.append(news)
            }
        }
        return missed
    }
}

/// How far back a reconnecting stream is told what it missed, event by event. Past either
/// bound it gets a `fresh-state` event instead, and the page reloads what it shows: a replay
/// of the whole ledger (`?lastEventId=0`) costs the server a read of every event and the
/// phone megabytes, for news the page would not show anyway.
struct ResumeLimits: Sendable {
    /// Ledger events after the last id heard (of every kind, not only those the listener hears).
    var events = 500
    /// Seconds since the first event missed.
    var age: TimeInterval = 30 * 60
}

extension ServedHunt {
    /// The control room's feed line for a claim the ledger recorded (a find, or an attempt
    /// it refused), for a stream that resumes: live, the feed hears each claim as it is judged
    /// (``tellGameMaster``, with no id), so a dropped stream would lose the claims made while
    /// it was down. Made from the claim as the ledger keeps it; the control room drops a line
    /// it already shows (same player, cache, verdict and scan time).
    func claimNews(of event: LedgerEvent) async throws -> [(LiveEvent, Audience)] {
        guard event.hunt == hunt.id, let (claim, verdict, find, points) = try FeedLine.recorded(in: event) else { return [] }
        let who = try await players.player(id: claim.player)
        return [(LiveEvent(name: "claim", value: FeedLine(claim, verdict: verdict, find: find, points: points,
                                                          name: who?.name ?? claim.player, team: who?.team, in: hunt,
                                                          at: Date(millisecondsSince1970: event.timeMs)), id: event.seq),
                 .gameMaster)]
    }
}

/// A find as the finder's streams hear it, and as a ``FindDigest`` names it to everyone (the
/// page tells its own finds apart by player id).
struct FindNews: Encodable {
    var player, name, cache, cacheName: String
    var points: Int
    var firstToFind: Bool
}

/// The hunt started or stopped: the page says so in its reader's language (`app.news.started`,
/// `app.news.stopped`), so no sentence travels in it.
struct RunningNews: Encodable {
    var running: Bool
}
