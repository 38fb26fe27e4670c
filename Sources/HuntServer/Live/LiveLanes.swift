import Foundation
import NIOCore

/// The streams in *lanes*, for what every stream hears in common: the finds, the standings,
/// each player's rank, the heartbeat. ``LiveEvents`` owns them and turns them.
///
/// Each stream is in one of `count` lanes (a round ÷ ``turn``), and at each turn the next
/// lane's streams are posted a ``FindDigest`` of the finds since that lane's last turn (encoded
/// once for the lane) and woken, to write it with whatever else waits in their mailboxes (the
/// latest standings, their rank) in one write each. A stream thus writes at most once per round
/// for all of it, and hears a find within a round whatever the number of streams (a round grows
/// past `round` only with streams enough to make its writes a burden: ``turnInterval``); the writes
/// are spread evenly over the round, so the event loops, which read every request too, never
/// have a crowd of writes ahead of a request. (A digest for every stream at once, woken slice
/// by slice, took 310 ms to reach 10,000 streams on top of the interval, and held the requests
/// behind its slices twice a second.) The lane's streams that write straight to their
/// connections (``LiveMailbox/writeDirectly(to:after:)``) are written in one job per event
/// loop.
///
/// ```swift
/// var lanes = LiveLanes(round: .milliseconds(500))
/// let lane = lanes.add(id, mailbox)
/// lanes.add(find: event)
/// lanes.turn()          // the first lane's streams hear the find
/// ```
struct LiveLanes {
    /// How often a lane takes its turn, while the streams are few.
    static let turn = Duration.milliseconds(10)
    /// A round writes once to every stream, so its writes grow with the streams: past this many
    /// writes a second the turns space out and the round grows, up to ``longestRound``. (At
    /// 10,000 streams and a round of 500 ms the lanes' writes were a third of a 2-core server's
    /// time, most of it the kernel's sends.)
    static let writesPerSecond = 15_000
    /// The longest round the streams' number makes: a phone still hears a find within a second.
    static let longestRound = Duration.milliseconds(750)

    /// The streams of each lane, and the lane whose turn is next.
    private var lanes: [[UUID: LiveMailbox]]
    private var next = 0
    /// Finds added so far, and how many of them each lane had been told at its last turn.
    private var findsAdded = 0
    private var told: [Int]
    /// The latest finds (``FindDigest/named``), and the seq of the newest.
    private var latestFinds: [LiveEvent] = []
    private var findsThrough: Int64 = 0
    /// Turns since the last news for the lanes: past a round of them, nothing waits.
    private var turnsSinceNews = 0
    /// The streams in all the lanes.
    private(set) var streams = 0

    /// Lanes enough for each to take its turn once a `round`.
    init(round: Duration) {
        let count = max(1, Int(round / Self.turn))
        lanes = Array(repeating: [:], count: count)
        told = Array(repeating: 0, count: count)
    }

    /// Adds a stream to the lane with the fewest, and returns that lane.
    mutating func add(_ id: UUID, _ mailbox: LiveMailbox) -> Int {
        let lane = lanes.indices.min { lanes[$0].count < lanes[$1].count }!
        if lanes[lane].updateValue(mailbox, forKey: id) == nil { streams += 1 }
        return lane
    }

    mutating func remove(_ id: UUID, from lane: Int) {
        if lanes[lane].removeValue(forKey: id) != nil { streams -= 1 }
    }

    mutating func removeAll() {
        lanes = lanes.map { _ in [:] }
        streams = 0
    }

    /// The time from one turn to the next: ``turn`` while a round of them writes no more than
    /// ``writesPerSecond``, longer (a longer round) with more streams, up to ``longestRound``.
    var turnInterval: Duration {
        let round = Self.turn * lanes.count
        let needed = Duration.seconds(Double(streams) / Double(Self.writesPerSecond))
        let longest = max(round, Self.longestRound)
        return min(max(round, needed), longest) / lanes.count
    }

    /// Adds a find to the digest each lane hears at its next turn.
    mutating func add(find: LiveEvent) {
        findsAdded += 1
        findsThrough = max(findsThrough, find.id ?? findsThrough)
        if latestFinds.count == FindDigest.named { latestFinds.removeFirst() }
        latestFinds.append(find)
        turnsSinceNews = 0
    }

    /// Something was posted for the lanes' turns (the standings, a rank, the heartbeat): they
    /// turn for a round more.
    mutating func haveNews() {
        turnsSinceNews = 0
    }

    /// The next lane's turn: its streams are posted the finds since its last turn and woken, to
    /// write that and whatever else waits. False once a whole round has passed with no news.
    @discardableResult
    mutating func turn() -> Bool {
        let lane = next
        next = (next + 1) % lanes.count
        let count = findsAdded - told[lane]
        told[lane] = findsAdded
        let digest = count > 0 ? FindDigest(count: count, latest: latestFinds.suffix(count), through: findsThrough).event : nil
        // Streams that write directly are written in one job per event loop.
        var direct: [ObjectIdentifier: (loop: any EventLoop, boxes: [LiveMailbox])] = [:]
        for box in lanes[lane].values {
            if let loop = box.postAndWake(digest) {
                direct[ObjectIdentifier(loop), default: (loop, [])].boxes.append(box)
            }
        }
        for (loop, boxes) in direct.values {
            loop.execute { for box in boxes { box.writeWaiting() } }
        }
        turnsSinceNews += 1
        return turnsSinceNews <= lanes.count
    }
}
