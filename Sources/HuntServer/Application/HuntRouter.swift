import Foundation
import Hummingbird

/// The whole HTTP surface in one place: middleware, then each resource's controller, then the
/// web app's static files.
///
/// ```swift
/// let router = HuntRouter.build(session: session)
/// let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)))
/// ```
public enum HuntRouter {
    public static func build(session: ServedHunt) -> Router<HuntRequestContext> {
        let router = Router(context: HuntRequestContext.self)
        let methods = RouteMethods()
        router.add(middleware: ForwardedClientMiddleware(trusted: session.options.trustedProxies))
        router.add(middleware: SecurityHeadersMiddleware(imageOrigins: session.options.basemap.imageOrigins))
        router.add(middleware: LanguageMiddleware())
        router.add(middleware: APIErrorMiddleware())
        router.add(middleware: MethodNotAllowedMiddleware(table: methods))
        router.add(middleware: BodyLimitMiddleware())
        router.add(middleware: WebAppFiles(app: session.options.webApp))
        let api = router.group("api")
        PlayerController(session: session).addRoutes(to: api)
        HuntController(session: session).addRoutes(to: api)
        ClaimController(session: session).addRoutes(to: api)
        TradeController(session: session).addRoutes(to: api)
        ReportController(session: session).addRoutes(to: api)
        HintController(session: session).addRoutes(to: api)
        ChallengeController(session: session).addRoutes(to: api)
        PhotoTaskController(session: session).addRoutes(to: api)
        ResultsController(session: session).addRoutes(to: api)
        CourseController(session: session).addRoutes(to: api)
        BoardController(session: session).addRoutes(to: api)
        AdminController(session: session).addRoutes(to: api)
        LiveController(session: session).addRoutes(to: api)
        WebController(session: session).addRoutes(to: router)
        MapController(session: session).addRoutes(api: api, root: router)
        CatalogueController().addRoutes(to: router)
        HealthController(session: session).addRoutes(to: router)
        methods.record(router)
        return router
    }
}
