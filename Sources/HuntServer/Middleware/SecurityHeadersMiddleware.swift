import Hummingbird
import HTTPTypes

/// Adds the headers every response carries: a content security policy that allows only this
/// server's own scripts, styles and images (the web app uses no CDN), no MIME sniffing, no
/// framing, no referrer (claim URLs hold codes), and the camera and geolocation for this origin only.
///
/// With an online basemap (`--tiles`), pages may also load images from that tile server's
/// origin, and from nowhere else.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: String

    /// - parameter imageOrigins: origins besides this server's that images may come from
    ///   (`https://tile.openstreetmap.org`).
    init(imageOrigins: [String] = []) {
        policy = "default-src 'self'; img-src " + (["'self'", "data:", "blob:"] + imageOrigins).joined(separator: " ") + "; media-src 'self' blob:; "
            + "connect-src 'self'; script-src 'self'; style-src 'self'; object-src 'none'; "
            + "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = policy
        response.headers[values: .init("X-Content-Type-Options")!] = ["nosniff"]
        response.headers[values: .init("X-Frame-Options")!] = ["DENY"]
        response.headers[values: .init("Referrer-Policy")!] = ["no-referrer"]
        response.headers[values: .init("Permissions-Policy")!] = ["camera=(self), geolocation=(self)"]
        return response
    }
}
