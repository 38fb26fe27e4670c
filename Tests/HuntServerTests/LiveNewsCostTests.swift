import Foundation
@testable import HuntServer
import Ledger
import NIOCore
import Testing

/// Issue 27 §1: what a stream is sent costs the same whatever the number of players. The top
/// of the standings and the number of players go to every stream; a player's own rank to that
/// player only, when it changed; a slow stream loses only standings it no longer needs.
@Suite("Live news costs O(1) per phone")
struct LiveNewsCostTests {
    static func find(_ seq: Int64) -> LiveEvent {
        LiveEvent(name: "find", json: #"{"cache":"A\#(seq)"}"#, id: seq)
    }

    /// No heartbeat within a test: a `ping` is posted to every stream after 15 s, and a test that
    /// took that long beside the other suites under ASan read a ping where it expected the news
    /// (CI, stop 40: 32 of 40 streams' first writes held the ping, not the find's digest).
    static let noHeartbeat = Duration.seconds(3_600)

    static func text(_ mailbox: LiveMailbox, after seq: Int64 = 0) async -> String {
        guard let (bytes, _) = await mailbox.next(after: seq) else { return "" }
        return String(buffer: bytes)
    }

    /// A stream that has not written yet gets the news in order, then only the newest
    /// standings and the newest rank: those replaced while waiting are never written.
    @Test func aWaitingStreamWritesOnlyTheNewestStandings() async {
        let box = LiveMailbox(limit: 8)
        let old = LiveEvent(name: LiveEvent.standings, json: #"{"top":[],"players":1}"#)
        let new = LiveEvent(name: LiveEvent.standings, json: #"{"top":[],"players":2}"#)
        let oldRank = LiveEvent(name: LiveEvent.rank, json: #"{"rank":2}"#), newRank = LiveEvent(name: LiveEvent.rank, json: #"{"rank":1}"#)
        for event in [old, oldRank, Self.find(4), new, Self.find(5), newRank] { #expect(box.post(event)) }
        let written = await Self.text(box)
        #expect(written == String(buffer: Self.find(4).wire) + String(buffer: Self.find(5).wire)
                + String(buffer: new.wire) + String(buffer: newRank.wire))
    }

    /// News of the ledger is never dropped: past the limit the stream is ended (the phone
    /// resumes from its last id); news the ledger does not hold goes first, oldest first.
    @Test func aFullMailboxEndsTheStreamRatherThanLoseLedgerNews() async {
        let box = LiveMailbox(limit: 2)
        let ping = LiveEvent(name: "ping", json: "{}")
        #expect(box.post(ping) && box.post(Self.find(1)))
        #expect(box.post(Self.find(2)), "the ping made room")
        #expect(!box.post(Self.find(3)), "a third piece of ledger news would be lost: the stream ends")
        #expect(box.isClosed)
        let written = await Self.text(box)
        #expect(written == String(buffer: Self.find(1).wire) + String(buffer: Self.find(2).wire))
        #expect(await box.next(after: 2) == nil)
    }

    /// A ledger event heard both in the replay and live is written once.
    @Test func ledgerNewsIsWrittenOnceBySeq() async {
        let box = LiveMailbox(limit: 8)
        for seq: Int64 in [3, 4, 2, 5] { box.post(Self.find(seq)) }
        let written = await Self.text(box, after: 3)
        #expect(written == String(buffer: Self.find(4).wire) + String(buffer: Self.find(5).wire))
    }

    /// Every stream hears the top ten and how many play; a player hears their own rank (and
    /// their team's) only when it, their points or their neighbours changed.
    @Test func ranksGoOnlyToThePlayersWhoseLineChanged() async throws {
        let board = Board([Standing(player: "P1", name: "Ada", team: "Owls", points: 100, finds: 5),
                           Standing(player: "P2", name: "Bo", team: "Foxes", points: 50, finds: 3),
                           Standing(player: "P3", name: "Cy", points: 40, finds: 2),
                           Standing(player: "P4", name: "Di", points: 10, finds: 1)]
                          + (5...25).map { Standing(player: "P\($0)", name: "Player \($0)", points: 0, finds: 0) })
        let live = LiveEvents(wakeInterval: .zero, findsInterval: .milliseconds(50), heartbeatInterval: Self.noHeartbeat)
        let standings = CachedRead(maxAge: .seconds(60)) { RankedStandings(await board.list) }
        let news = StandingsNews(live: live, standings: standings)
        var boxes: [String: LiveMailbox] = [:]
        for player in ["P1", "P2", "P3", "P4"] { boxes[player] = try await live.subscribe(.player(player)).1 }
        let (_, room) = try await live.subscribe(.gameMaster)

        await news.send()
        let first = await Self.text(boxes["P3"]!)
        #expect(first.hasPrefix("event: standings\ndata: {\"top\":[{\"rank\":1,\"player\":\"P1\""))
        #expect(first.contains("\"players\":25}") && first.components(separatedBy: "\"player\":").count == 11, "the top ten only")
        // Each line of the top has its rank: the players on 0 points and no finds share fifth.
        #expect(first.contains(#"{"rank":4,"player":"P4""#) && first.contains(#"{"rank":5,"player":"P5""#)
                && first.contains(#"{"rank":5,"player":"P10""#))
        #expect(first.hasSuffix(#"event: rank\#ndata: {"rank":3,"points":40,"finds":2,"players":25,"ahead":{"name":"Bo","points":50},"behind":{"name":"Di","points":10}}\#n\#n"#))
        #expect(await Self.text(room).contains("event: standings"))
        for player in ["P1", "P2", "P4"] { #expect(await Self.text(boxes[player]!).contains("event: rank")) }

        // Di overtakes Cy: Bo's neighbour behind, Cy and Di change; Ada's line does not.
        await board.set("P4", points: 45)
        await standings.invalidate()
        await news.send()
        #expect(!(await Self.text(boxes["P1"]!)).contains("event: rank"))
        #expect(await Self.text(boxes["P2"]!).contains(#""behind":{"name":"Di","points":45},"team":{"name":"Foxes","rank":2,"points":50,"teams":2}}"#))
        #expect(await Self.text(boxes["P3"]!).contains(#""rank":4"#))
        #expect(await Self.text(boxes["P4"]!).contains(#""rank":3"#))
        #expect(await Self.text(room).contains("event: standings"), "the top changed: every stream hears it")

        // Player 25, last, loses points: a change below the top ten that moves none of these
        // four, so none of them is sent anything (the top every stream holds is not sent again).
        await board.set("P25", points: -5)
        await standings.invalidate()
        await news.send()
        let ping = LiveEvent(name: "ping", json: "{}")
        await live.send(ping, to: nil)
        for player in ["P1", "P2", "P3", "P4"] { #expect(await Self.text(boxes[player]!) == String(buffer: ping.wire)) }
        #expect(await Self.text(room) == String(buffer: ping.wire))
        await live.closeAll()
    }

    /// With more than 2,000 players listening, a rank moved only by others' finds is told in
    /// turns: each send tells a share of those players, every one within `turns` sends, each
    /// once; a player whose own points changed is told at the next send.
    @Test func ranksMovedByOthersAreToldInTurnsPastTwoThousandListening() async throws {
        let count = 4_500
        #expect(StandingsNews.ranksInTurn(2_000) == 1 && StandingsNews.ranksInTurn(2_001) == 2)
        #expect(StandingsNews.ranksInTurn(count) == 3 && StandingsNews.ranksInTurn(50_000) == 5)
        let board = Board([Standing(player: "P1", name: "Ada", points: 10, finds: 1)]
                          + (2...count).map { Standing(player: "P\($0)", name: "Player \($0)", points: 0, finds: 0) })
        let live = LiveEvents(wakeInterval: .zero, findsInterval: .milliseconds(50), heartbeatInterval: Self.noHeartbeat,
                              lanesTurnThemselves: false)
        let standings = CachedRead(maxAge: .seconds(60)) { RankedStandings(await board.list) }
        let news = StandingsNews(live: live, standings: standings)
        var boxes: [String: LiveMailbox] = [:]
        for n in 1...count { boxes["P\(n)"] = try await live.subscribe(.player("P\(n)")).1 }
        await news.send()
        for box in boxes.values where box.hasWaiting { _ = await Self.text(box) }   // everyone told once

        // Player 7 finds: every other player without a find drops from second to third.
        await board.set("P7", points: 20)
        var toldAt: [String: Int] = [:]
        for send in 1...4 {
            await standings.invalidate()
            await news.send()
            var told: [String] = []
            for (player, box) in boxes where box.hasWaiting {
                if await Self.text(box).contains("event: rank") { told.append(player) }
            }
            for player in told {
                #expect(toldAt[player] == nil, "\(player) told twice")
                toldAt[player] = send
            }
            if send == 1 {
                #expect(told.contains("P7"), "the finder hears its own rank at the next send")
                #expect(told.count < count * 2 / 3, "\(told.count) told at once")
            }
        }
        #expect(toldAt.count == count, "every player's rank changed, and every player heard it within three sends")
        #expect(Set(toldAt.values) == [1, 2, 3])
        await live.closeAll()
    }

    /// Finds reach every stream as digests, a lane of streams at each turn: each digest counts
    /// the finds since that lane's last turn and names the latest three; the finder's own stream
    /// alone hears its find as ledger news, at once. No stream hears a digest before its turn.
    @Test func findsReachEachLaneAtItsTurnCountedSinceItsLast() async throws {
        let live = LiveEvents(wakeInterval: .zero, findsInterval: .milliseconds(30), heartbeatInterval: Self.noHeartbeat,
                              lanesTurnThemselves: false)
        let (_, ada) = try await live.subscribe(.player("P1"))
        let (_, bo) = try await live.subscribe(.player("P2"))
        let (_, cy) = try await live.subscribe(.player("P3"))
        await live.send(Self.find(10), to: .players(["P1"]))
        for seq: Int64 in 10...14 { await live.send(Self.find(seq), to: .digest) }
        #expect(!bo.hasWaiting && !cy.hasWaiting, "finds wait for the lanes' turns")
        let five = "event: finds\ndata: {\"count\":5,\"finds\":[{\"cache\":\"A12\"},{\"cache\":\"A13\"},{\"cache\":\"A14\"}],\"through\":14}\n\n"
        #expect(await Self.text(ada) == String(buffer: Self.find(10).wire), "the finder's own news at once")

        await live.turnLane()   // the first lane: Ada's
        #expect(await Self.text(ada) == five)
        #expect(!bo.hasWaiting && !cy.hasWaiting, "the other lanes wait for their turns")

        await live.send(Self.find(15), to: .digest)
        await live.turnLane()   // Bo's lane: six finds since its last turn
        let six = "event: finds\ndata: {\"count\":6,\"finds\":[{\"cache\":\"A13\"},{\"cache\":\"A14\"},{\"cache\":\"A15\"}],\"through\":15}\n\n"
        #expect(await Self.text(bo) == six)
        await live.turnLane()
        #expect(await Self.text(cy) == six)
        await live.turnLane()   // Ada's again: the one find since
        #expect(await Self.text(ada) == "event: finds\ndata: {\"count\":1,\"finds\":[{\"cache\":\"A15\"}],\"through\":15}\n\n")
        await live.closeAll()
    }

    /// A lane's turn writes the digest, the standings and the stream's own rank in one write;
    /// the lanes stop turning once a round has passed with no news for them.
    @Test func aTurnWritesFindsStandingsAndRankTogether() async throws {
        let live = LiveEvents(wakeInterval: .zero, findsInterval: .milliseconds(20), heartbeatInterval: Self.noHeartbeat,
                              lanesTurnThemselves: false)
        let (_, bo) = try await live.subscribe(.player("P2"))
        let (_, cy) = try await live.subscribe(.player("P3"))
        await live.send(Self.find(1), to: .digest)
        await live.send(Self.find(2), to: .digest)
        let standings = LiveEvent(name: LiveEvent.standings, json: #"{"top":[],"players":2}"#)
        let rank = LiveEvent(name: LiveEvent.rank, json: #"{"rank":1}"#)
        await live.send(standings: standings, ranks: ["P2": rank])
        #expect(await live.turnLane())
        let written = await Self.text(bo)
        #expect(written == #"event: finds\#ndata: {"count":2,"finds":[{"cache":"A1"},{"cache":"A2"}],"through":2}\#n\#n"#
                + String(buffer: standings.wire) + String(buffer: rank.wire), "one write: the finds, the standings, the rank")
        #expect(await live.turnLane())
        #expect(await Self.text(cy) == #"event: finds\#ndata: {"count":2,"finds":[{"cache":"A1"},{"cache":"A2"}],"through":2}\#n\#n"#
                + String(buffer: standings.wire), "no rank of its own: none changed")
        #expect(!(await live.turnLane()), "a round without news: the lanes stop")
        #expect(Audience.digest.includes(.player("P2")) == false, "a stream that resumes is not told others' finds again")
        await live.closeAll()
    }

    /// Players equal in points and finds share a rank in their own `rank` event, as on the big
    /// screen and in the results (1, 2, 2, 4): a player level with two others was told "4th"
    /// on the phone while the big screen showed them second.
    @Test func playersLevelOnPointsAndFindsShareTheirRank() {
        let board = RankedStandings([Standing(player: "P1", name: "Tomas", points: 23, finds: 1),
                                     Standing(player: "P2", name: "Lucia", points: 18, finds: 1),
                                     Standing(player: "P3", name: "Rui", points: 18, finds: 1),
                                     Standing(player: "P4", name: "Sofia", points: 18, finds: 1),
                                     Standing(player: "P5", name: "Ines", points: 0, finds: 0)])
        #expect(["P1", "P2", "P3", "P4", "P5"].map { board.rank(of: $0)?.rank } == [1, 2, 2, 2, 5])
        #expect(board.rank(of: "P4")?.event.json.contains(#""ahead":{"name":"Rui","points":18}"#) == true)
    }

    /// With the lanes turning themselves, every stream hears a find within a round.
    @Test func everyStreamHearsAFindWithinARound() async throws {
        let live = LiveEvents(wakeInterval: .zero, findsInterval: .milliseconds(100), heartbeatInterval: Self.noHeartbeat)
        var boxes: [LiveMailbox] = []
        for n in 1...40 { boxes.append(try await live.subscribe(.player("P\(n)")).1) }
        await live.send(Self.find(7), to: .digest)
        for box in boxes { #expect(await Self.text(box).contains(#""through":7"#)) }
        await live.closeAll()
    }

    /// A round writes once to every stream: with few streams the lanes turn every 10 ms (a round
    /// of 500 ms); past 15,000 writes a second the round grows with the streams, up to 750 ms,
    /// and shrinks again as they leave.
    @Test func theRoundGrowsWithTheStreamsUpToItsLongest() {
        var lanes = LiveLanes(round: .milliseconds(500))
        let ids = (0..<12_000).map { _ in UUID() }
        var placed: [(UUID, Int)] = []
        for (n, id) in ids.enumerated() {
            placed.append((id, lanes.add(id, LiveMailbox(limit: 1))))
            if n + 1 == 7_500 { #expect(lanes.turnInterval == .milliseconds(10)) }
            if n + 1 == 9_000 { #expect(lanes.turnInterval == .milliseconds(12)) }
        }
        #expect(lanes.streams == 12_000)
        #expect(lanes.turnInterval == .milliseconds(15), "750 ms at most, however many streams")
        for (id, lane) in placed.prefix(6_000) { lanes.remove(id, from: lane) }
        lanes.remove(ids[0], from: placed[0].1)
        #expect(lanes.streams == 6_000, "a stream removed twice counts once")
        #expect(lanes.turnInterval == .milliseconds(10))
    }

    actor Board {
        var list: [Standing]
        init(_ list: [Standing]) { self.list = list }
        func set(_ player: String, points: Int) {
            list = list.map { $0.player == player ? Standing(player: $0.player, name: $0.name, team: $0.team, points: points, finds: $0.finds) : $0 }
                .sorted { $0.points > $1.points }
        }
    }
}
