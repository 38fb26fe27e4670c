import Foundation
import Hummingbird

/// The web app's static files, for every path outside `/api/` that no route answers (an API
/// request goes straight to its route, never to the files).
///
/// Built in, each file is answered from memory with its type, `Cache-Control: no-cache` and an
/// ETag made from its bytes once at start, so a phone that has it gets a 304; `/` is
/// `index.html`; HEAD has the headers alone. From a folder (`geoqr serve --web DIR`),
/// Hummingbird's `FileMiddleware` reads the disk at every request, with the same types and
/// cache control. A missing file is the router's 404, as for any unknown path.
///
/// ```swift
/// router.add(middleware: WebAppFiles(app: .builtIn))
/// ```
struct WebAppFiles<Context: RequestContext>: RouterMiddleware {
    let app: WebApp
    /// The folder's files, when the app is a folder.
    let folderFiles: FileMiddleware<Context, LocalFileSystem>?

    init(app: WebApp) {
        self.app = app
        folderFiles = app.folder.map {
            FileMiddleware($0, cacheControl: .init([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true)
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.uri.path.hasPrefix("/api/") { return try await next(request, context) }
        if let folderFiles { return try await folderFiles.handle(request, context: context, next: next) }
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError where error.status == .notFound {
            guard request.method == .get || request.method == .head, let file = app.builtInFile(at: request.uri.path) else {
                throw error
            }
            return file.response(to: request)
        }
    }
}
