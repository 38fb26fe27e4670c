import Foundation
import GeoQR
import Ledger

/// What the big screen shows, and only what the hunt makes public: the standings (names,
/// teams, points, finds), the teams, the latest finds and the course results. No player id,
/// position, PIN or report.
public struct PublicBoard: Sendable, Equatable, Codable {
    public struct Place: Sendable, Equatable, Codable {
        public var rank: Int
        public var name: String
        public var team: String?
        public var points: Int
        public var finds: Int
    }

    public struct LatestFind: Sendable, Equatable, Codable {
        public var name: String
        public var team: String?
        public var cache: String
        public var time: Date
        public var points: Int
        public var firstToFind: Bool
    }

    public struct CourseLine: Sendable, Equatable, Codable {
        public var rank: Int?
        public var name: String
        public var team: String?
        public var status: CourseStatus
        public var elapsed: TimeInterval?
        public var score: Int
        public var penalty: Int
        /// Seconds from the start at each control (nil: not punched), in the course's order
        /// for a line course, punch order for a score course.
        public var splits: [CourseRun.Split]
    }

    public struct CourseTable: Sendable, Equatable, Codable {
        public var id: String
        public var name: String
        public var kind: Course.Kind
        public var controls: [String]
        public var lines: [CourseLine]
    }

    public var hunt: String
    public var standings: [Place]
    /// How many players there are in all (the standings show the top ones).
    public var players: Int
    public var teams: [TeamStanding]
    public var latest: [LatestFind]
    public var courses: [CourseTable]
    public var time: Date

    /// The most players a board lists: a projector shows about twenty lines.
    public static let top = 20
    /// The latest finds a board lists.
    public static let latestCount = 8
}

extension Game {
    /// The big screen's board.
    public func publicBoard() async throws -> PublicBoard {
        let standings = try await store.leaderboard(hunt: huntID)
        let players = try await store.players(hunt: huntID)
        let byID = Dictionary(players.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let points = try await store.pointsByFind(hunt: huntID)
        let finds = try await store.liveFinds(hunt: huntID, player: nil)
        let latest = finds.sorted { $0.time > $1.time }.prefix(PublicBoard.latestCount).map { find in
            PublicBoard.LatestFind(name: byID[find.player]?.name ?? find.player, team: byID[find.player]?.team,
                                   cache: hunt.cache(id: find.cache)?.name ?? find.cache, time: find.time,
                                   points: points[find.id] ?? 0, firstToFind: find.firstToFind)
        }
        var courses: [PublicBoard.CourseTable] = []
        if !hunt.courses.isEmpty {
            let board = try await courseResults()
            courses = board.courses.map { course in
                PublicBoard.CourseTable(id: course.course, name: course.name, kind: course.kind, controls: course.controls,
                                        lines: course.lines.map { line in
                    let runner = board.runners[line.run.player]
                    return PublicBoard.CourseLine(rank: line.rank, name: runner?.name ?? line.run.player, team: runner?.team,
                                                  status: line.run.status, elapsed: line.run.elapsed, score: line.run.score,
                                                  penalty: line.run.penalty, splits: line.run.splits)
                })
            }
        }
        return PublicBoard(
            hunt: hunt.name,
            standings: Results.ranked(standings).prefix(PublicBoard.top).map {
                PublicBoard.Place(rank: $0.rank, name: $0.name, team: $0.team, points: $0.points, finds: $0.finds)
            },
            players: players.count, teams: TeamStanding.rank(standings), latest: Array(latest), courses: courses,
            time: clock())
    }
}
