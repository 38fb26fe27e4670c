import Foundation

/// Tells listeners the standings have changed, at most once per interval: the first change
/// is sent at once, the changes that follow within the interval share one trailing send. A
/// busy session (thousands of finds a second) then reads the whole leaderboard a few times a
/// second, not once per find; and not at all while nobody is listening.
///
/// The interval grows with the streams the last send reached: one second more for each
/// ``listenersPerSecond`` of them, never less than the interval given. A send reads the
/// leaderboard and tells each listener whose place moved their new rank, so its cost grows
/// with the listeners; at 10,000 phones a send took 200–400 ms of the server's time (the read
/// 50–120 ms, the ranks of the 2,500–3,000 players who moved 30–100 ms), a quarter of a core
/// when sent every second. (The read is now of the players who changed alone,
/// ``Ledger/LeaderboardBook``; the ranks still grow with the listeners.) Spaced this way the
/// standings cost the server about the same each second past 5,000 phones, and a player's
/// rank is at most two seconds old at 10,000: news of each find still goes out at once
/// (``LiveLanes``).
///
/// ```swift
/// let news = LeaderboardNews(interval: .milliseconds(100)) { await sendStandings() }   // → listeners reached
/// await news.changed()
/// ```
actor LeaderboardNews {
    /// Listeners a send may reach per second of interval.
    static let listenersPerSecond = 5_000

    private let interval: Duration
    private let send: @Sendable () async -> Int
    private var lastSent: ContinuousClock.Instant?
    /// The interval after the last send, from the listeners it reached.
    private var spacing: Duration
    private var trailing = false

    /// - Parameter send: sends the standings, and answers how many streams it sent them to.
    init(interval: Duration, send: @escaping @Sendable () async -> Int) {
        self.interval = interval
        self.spacing = interval
        self.send = send
    }

    /// The interval after a send that reached `listeners` streams.
    static func spacing(after listeners: Int, atLeast interval: Duration) -> Duration {
        max(interval, .seconds(listeners) / listenersPerSecond)
    }

    func changed() async {
        if trailing { return }   // the send already due will read this change too
        let now = ContinuousClock.now
        if let last = lastSent, now < last + spacing {
            trailing = true
            Task { [spacing] in
                try? await Task.sleep(until: last + spacing, clock: .continuous)
                await self.sendTrailing()
            }
            return
        }
        lastSent = now
        await sendNow()
    }

    private func sendTrailing() async {
        // Cleared before reading, so a change during the read schedules a send of its own.
        trailing = false
        lastSent = .now
        await sendNow()
    }

    private func sendNow() async {
        spacing = Self.spacing(after: await send(), atLeast: interval)
    }
}
