import Hummingbird
import HTTPTypes
import Foundation

/// Answers 405 with an `Allow` header, rather than 404, when a path exists but not for the
/// request's method (`DELETE /api/trades`), so clients and the API's own contract tests can
/// tell a wrong method from a wrong address.
///
/// The middleware must be added before the routes it guards, but only knows them once they
/// are: ``RouteMethods/record(_:)`` fills the table after the router is built.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let table: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = table.methods(for: request.uri.path)
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            var refusal = APIError(.methodNotAllowed, "method-not-allowed",
                                   "\(request.method) is not allowed here; use \(allowed.map(\.rawValue).joined(separator: " or "))")
            refusal.headers[.allow] = allowed.map(\.rawValue).joined(separator: ", ")
            throw refusal
        }
    }
}

/// The methods each route path answers, `{id}` segments matching any one segment.
final class RouteMethods: Sendable {
    /// A pthread-based lock, which ThreadSanitizer understands (see GroupCommit).
    private let lock = NSLock()
    nonisolated(unsafe) private var table: [(segments: [String], method: HTTPRequest.Method)] = []

    func record<C>(_ router: Router<C>) {
        let table = router.routes.map { route in
            (segments: route.path.components.map(\.description), method: route.method)
        }
        lock.withLock { self.table = table }
    }

    func methods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let matching = lock.withLock {
            table.filter { route in
                route.segments.count == segments.count
                    && zip(route.segments, segments).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
            }.map(\.method)
        }
        var seen = Set<String>()
        return matching.filter { seen.insert($0.rawValue).inserted }.sorted { $0.rawValue < $1.rawValue }
    }
}
