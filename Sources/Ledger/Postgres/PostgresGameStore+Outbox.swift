import Foundation
import PostgresNIO

extension PostgresGameStore {
    /// The channel every append notifies (migration "v3: notify on append").
    public static let eventsChannel = "geoqr_events"

    public func headSeq() async throws -> Int64 {
        try await read { sql in try await sql.row("SELECT seq FROM chain_head WHERE id = 1")?["seq"] ?? 0 }
    }

    /// `LISTEN geoqr_events` on a connection of its own (a pooled one would be handed to other
    /// work), reconnecting a second after it is lost, until the stream is dropped.
    public func appendNotices() -> AsyncStream<Void>? {
        let location = self.location
        let (notices, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let listening = Task {
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(configuration: try location.connectionConfiguration(),
                                                                          id: 2, logger: PostgresSQL.logger)
                    do {
                        try await connection.listen(on: Self.eventsChannel) { sequence in
                            continuation.yield()   // listening from here: read what came before
                            for try await _ in sequence { continuation.yield() }
                        }
                    } catch {
                        PostgresSQL.logger.warning("LISTEN \(Self.eventsChannel) ended: \(error)")
                    }
                    try? await connection.close()
                } catch {
                    PostgresSQL.logger.warning("LISTEN \(Self.eventsChannel): cannot connect: \(error)")
                }
                continuation.yield()
                try? await Task.sleep(for: .seconds(1))
            }
        }
        continuation.onTermination = { _ in listening.cancel() }
        return notices
    }
}
