import Foundation
import PostgresNIO

extension PostgresGameStore {
    /// The channel every append notifies (migration "v3: notify on append").
    public static let eventsChannel = "geoqr_events"
    /// The channel ``publish(news:)`` notifies.
    public static let newsChannel = "geoqr_news"

    /// `LISTEN geoqr_events` and `LISTEN geoqr_news` on a connection of their own (a pooled one
    /// would be handed to other work), reconnecting a second after it is lost, until the
    /// stream is dropped.
    public func notices() -> AsyncStream<StoreNotice>? {
        let location = self.location
        // News is kept (up to a burst's worth); appends fold into the next read anyway.
        let (notices, continuation) = AsyncStream<StoreNotice>.makeStream(bufferingPolicy: .bufferingNewest(4096))
        let listening = Task {
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(configuration: try location.connectionConfiguration(),
                                                                          id: 2, logger: PostgresSQL.logger)
                    do {
                        try await connection.listen(on: Self.eventsChannel) { appended in
                            try await connection.listen(on: Self.newsChannel) { news in
                                continuation.yield(.appended)   // listening from here: read what came before
                                try await withThrowingTaskGroup(of: Void.self) { group in
                                    group.addTask { for try await _ in appended { continuation.yield(.appended) } }
                                    group.addTask { for try await notice in news { continuation.yield(.news(notice.payload)) } }
                                    try await group.next()
                                    group.cancelAll()
                                }
                            }
                        }
                    } catch {
                        PostgresSQL.logger.warning("LISTEN \(Self.eventsChannel): \(error)")
                    }
                    try? await connection.close()
                } catch {
                    PostgresSQL.logger.warning("LISTEN \(Self.eventsChannel): cannot connect: \(error)")
                }
                continuation.yield(.appended)
                try? await Task.sleep(for: .seconds(1))
            }
        }
        continuation.onTermination = { _ in listening.cancel() }
        return notices
    }

    public func publish(news: String) async throws {
        guard news.utf8.count <= maxNewsBytes else { return }
        try await read { sql in try await sql.execute("SELECT pg_notify(?, ?)", Self.newsChannel, news) }
    }
}
