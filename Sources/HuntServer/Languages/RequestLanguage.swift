import GeoQR
import Hummingbird

/// The language the request being answered is answered in, from its `Accept-Language` header
/// (the web app sends its chosen language on every fetch); English by default.
///
/// A task-local rather than a parameter: every writer of player-facing words reads it (claim
/// answers, the caches' directions, error messages made far from any handler), and it holds
/// for exactly as long as the request is being answered.
///
/// ```swift
/// answer.write(to: &json, in: RequestLanguage.current)
/// ```
enum RequestLanguage {
    @TaskLocal static var current: Language = .en
}

/// Answers each request in the language it asks for (see ``RequestLanguage``), and tells
/// caches that API answers vary by it.
struct LanguageMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let header = request.headers[values: .acceptLanguage].joined(separator: ",")
        let language = Language(acceptLanguage: header)
        var response = try await RequestLanguage.$current.withValue(language) { try await next(request, context) }
        if request.uri.path.hasPrefix("/api/") { response.headers[values: .vary].append("Accept-Language") }
        return response
    }
}
