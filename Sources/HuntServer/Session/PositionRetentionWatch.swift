import Foundation
import GeoQR
import Ledger
import Logging
import Play
import ServiceLifecycle

/// Keeps the hunt's promise on positions while the server runs: once the hunt has ended, the
/// players' last positions kept in memory go, and once the hunt file's
/// `positionRetentionHours` have passed, every position the ledger stores is dropped
/// (``Play/Game/dropPositions()``). It looks when the server starts and every ten minutes, so a
/// laptop left serving after the hunt drops them on time; `geoqr gm drop-positions` does the
/// same by hand.
///
/// ```swift
/// services.append(PositionRetentionWatch(session: session))
/// ```
struct PositionRetentionWatch: Service {
    let session: ServedHunt
    var interval: Duration = .seconds(600)

    func run() async throws {
        while !Task.isShuttingDownGracefully {
            await look()
            // Ended at once by a shutdown, so the server need not wait for it.
            do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) } } catch { return }
        }
    }

    /// Clears the positions the server keeps for an ended hunt, and drops the ledger's when
    /// their time has come; a refusal (not yet) is the usual answer, and waits for the next look.
    func look() async {
        do {
            let retention = try await session.game.positionRetention()
            guard retention.endedAt != nil else { return }
            await session.whereabouts.clear()
            guard let from = retention.dropFrom, session.now() >= from else { return }
            if let dropped = try await session.act({ try await session.game.dropPositions() }) {
                session.logger.info("dropped the positions of \(dropped.claims) claims, \(dropped.retentionHours) hours after the hunt ended")
            }
        } catch {
            session.logger.warning("dropping positions: \(error)")
        }
    }
}
