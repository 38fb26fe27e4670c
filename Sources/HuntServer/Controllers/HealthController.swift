import Hummingbird

/// `GET /healthz`, for a reverse proxy's health checks and a service monitor: 200 with
/// `{"status": "ok", "hunt": "DEMO", "running": true}` when the ledger answers a read, 503
/// (`ledger-unavailable`) when it does not. Nothing in it is private.
///
/// ```sh
/// curl -fsS http://127.0.0.1:8080/healthz
/// ```
struct HealthController {
    let session: ServedHunt

    func addRoutes(to router: Router<HuntRequestContext>) {
        router.get("healthz", use: health)
    }

    struct Health: ResponseEncodable {
        var status: String
        var hunt: String
        var running: Bool
    }

    @Sendable func health(_ request: Request, context: HuntRequestContext) async throws -> Health {
        do {
            return Health(status: "ok", hunt: session.hunt.id, running: try await session.store.huntRunning(hunt: session.hunt.id))
        } catch {
            throw APIError(.serviceUnavailable, "ledger-unavailable", "the ledger does not answer: \(error)")
        }
    }
}
