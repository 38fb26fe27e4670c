import Foundation

/// Tells listeners the standings have changed, at most once per `interval`: the first change
/// is sent at once, the changes that follow within the interval share one trailing send. A
/// busy session (thousands of finds a second) then reads the whole leaderboard a few times a
/// second, not once per find; and not at all while nobody is listening.
///
/// ```swift
/// let news = LeaderboardNews(interval: .milliseconds(100)) { await sendStandings() }
/// await news.changed()
/// ```
actor LeaderboardNews {
    private let interval: Duration
    private let send: @Sendable () async -> Void
    private var lastSent: ContinuousClock.Instant?
    private var trailing = false

    init(interval: Duration, send: @escaping @Sendable () async -> Void) {
        self.interval = interval
        self.send = send
    }

    func changed() async {
        if trailing { return }   // the send already due will read this change too
        let now = ContinuousClock.now
        if let last = lastSent, now < last + interval {
            trailing = true
            Task {
                try? await Task.sleep(until: last + interval, clock: .continuous)
                await self.sendTrailing()
            }
            return
        }
        lastSent = now
        await send()
    }

    private func sendTrailing() async {
        // Cleared before reading, so a change during the read schedules a send of its own.
        trailing = false
        lastSent = .now
        await send()
    }
}
