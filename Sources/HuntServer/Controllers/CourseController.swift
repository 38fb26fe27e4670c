import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

/// Courses: a runner's own run (the phone's course card), and for the game master every
/// course's results with splits, who is still out, mass starts and disqualifications.
struct CourseController {
    let session: ServedHunt

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        group.get("me/course", use: myCourse)
        let admin = group.group("admin").add(middleware: AdminOnly(session: session))
        admin.get("courses", use: courses)
        admin.get("still-out", use: stillOut)
        admin.post("courses/:id/start", use: start)
        admin.post("courses/:id/disqualify", use: disqualify)
    }

    /// A course as a phone shows it: its controls by name, in order.
    struct CourseCard: Encodable {
        struct Control: Encodable { var id, name: String }
        var id, name: String
        var kind: Course.Kind
        var start: Control?
        var controls: [Control]
        var finish: Control
        var timeLimitSeconds: Double?
        var penaltyPerMinute: Int
        /// When the mass start was given (mass-start courses only).
        var massStart: Date?

        init(_ course: Course, in hunt: Hunt, massStart: Date?) {
            func control(_ id: String) -> Control { Control(id: id, name: hunt.cache(id: id)?.name ?? id) }
            self.id = course.id
            name = course.name
            kind = course.kind
            start = course.start.map(control)
            controls = course.controls.map(control)
            finish = control(course.finish)
            timeLimitSeconds = course.timeLimit
            penaltyPerMinute = course.penaltyPerMinute
            self.massStart = course.start == nil ? course.massStart ?? massStart : nil
        }
    }

    struct MyCourse: ResponseEncodable {
        /// Every course of the hunt (empty for a free hunt).
        var courses: [CourseCard]
        /// The player's run, once they punched a start (or the mass start reached them).
        var run: CourseRun?
        var next: String?
        /// The server's clock, so the page's running time does not depend on the phone's.
        var now: Date
    }

    @Sendable func myCourse(_ request: Request, context: HuntRequestContext) async throws -> MyCourse {
        let id = try await session.player(request)
        guard let player = try await session.players.player(id: id) else { throw APIError.badToken }
        let hunt = session.hunt
        guard !hunt.courses.isEmpty else { return MyCourse(courses: [], run: nil, next: nil, now: session.now()) }
        let starts = try await session.store.courseStarts(hunt: hunt.id)
        let run = try await session.game.courseRun(of: player)
        return MyCourse(courses: hunt.courses.map { CourseCard($0, in: hunt, massStart: starts[$0.id]) },
                        run: run, next: run?.nextControl, now: session.now())
    }

    struct Board: ResponseEncodable {
        var board: CourseBoard
        var courses: [CourseCard]
    }

    @Sendable func courses(_ request: Request, context: HuntRequestContext) async throws -> Board {
        let board = try await session.game.courseResults()
        return Board(board: board, courses: session.hunt.courses.map { CourseCard($0, in: session.hunt, massStart: board.massStarts[$0.id]) })
    }

    struct StillOutList: ResponseEncodable {
        var runners: [StillOut]
        var warningMinutes: Int
        var now: Date
    }

    @Sendable func stillOut(_ request: Request, context: HuntRequestContext) async throws -> StillOutList {
        var positions: [String: (Coordinate, Date)] = [:]
        for fix in await session.whereabouts.all() {
            positions[fix.player] = (Coordinate(latitude: fix.latitude, longitude: fix.longitude), fix.at)
        }
        return StillOutList(runners: try await session.game.stillOut(positions: positions),
                            warningMinutes: session.hunt.stillOutWarningMinutes, now: session.now())
    }

    struct Started: ResponseEncodable { var course: String; var started: Date }

    @Sendable func start(_ request: Request, context: HuntRequestContext) async throws -> Started {
        let id = try context.parameters.require("id")
        let started = try await session.act { try await session.game.startCourse(id) }
        return Started(course: id.uppercased(), started: started)
    }

    struct Disqualification: Decodable { var player: String; var reason: String }
    struct Disqualified: ResponseEncodable { var player, course, reason: String }

    @Sendable func disqualify(_ request: Request, context: HuntRequestContext) async throws -> Disqualified {
        let course = try context.parameters.require("id")
        var request = request
        let body = try await request.json(Disqualification.self)
        guard let player = try await session.players.player(id: body.player) else { throw GameRuleViolation.unknownPlayer(body.player) }
        let reason = try await session.act { try await session.game.disqualify(player.id, from: course, reason: body.reason) }
        return Disqualified(player: player.id, course: course.uppercased(), reason: reason)
    }
}
