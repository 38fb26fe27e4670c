import Workers

extension APIError {
    /// Heavy work refused by its pool: 503 with `Retry-After` when the pool's queue is full
    /// (`server-busy`), 429 when the player already has a picture being read (`one-at-a-time`).
    static func from(_ refusal: WorkerPoolError) -> APIError {
        switch refusal {
        case .full(_, let seconds):
            var error = APIError(.serviceUnavailable, "server-busy", refusal.description)
            error.headers[.retryAfter] = String(seconds)
            return error
        case .ownerBusy:
            var error = APIError(.tooManyRequests, "one-at-a-time", refusal.description)
            error.headers[.retryAfter] = "1"
            return error
        }
    }
}
