import Foundation
import Hummingbird

/// The phone web app's entry points beyond its static files: the URL form of a code
/// (`/C/GQ1.…`, as a phone's camera app opens it; `/c/` too) answers with the claim page,
/// which asks the browser where it is and claims. The code stays in the address, read by the
/// page's script, never echoed into HTML.
struct WebController {
    let session: ServedHunt

    func addRoutes(to router: Router<HuntRequestContext>) {
        router.get("C/:code", use: claimPage)
        router.get("c/:code", use: claimPage)
    }

    @Sendable func claimPage(_ request: Request, context: HuntRequestContext) async throws -> Response {
        guard let page = session.options.webApp.contents(of: "web/claim.html") else {
            throw APIError.notFound("no-web-app", "the web app's folder has no claim.html")
        }
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: page)))
    }
}
