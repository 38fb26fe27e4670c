import Foundation
import Hummingbird
import Play

/// What the game master reads to follow a hunt and to close it, behind the admin token: each
/// cache's health (``Play/Game/stations()``) and the results (``Play/Game/results()``) as JSON
/// and as CSV files to download, the same tables `geoqr results` writes.
struct ResultsController {
    let session: ServedHunt

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        let admin = group.group("admin").add(middleware: AdminOnly(session: session))
        admin.get("stations", use: stations)
        admin.get("results", use: results)
        for table in Results.Table.allCases {
            admin.get(RouterPath("results/\(table.rawValue).csv")) { _, _ in try await self.csv(table) }
        }
    }

    struct StationList: ResponseEncodable { var stations: [StationHealth] }

    @Sendable func stations(_ request: Request, context: HuntRequestContext) async throws -> StationList {
        StationList(stations: try await session.game.stations())
    }

    @Sendable func results(_ request: Request, context: HuntRequestContext) async throws -> Results {
        try await session.game.results()
    }

    /// One table as a CSV download named after the hunt: `DEMO-finds.csv`.
    func csv(_ table: Results.Table) async throws -> Response {
        let text = try await session.game.results().csv(table)
        return Response(status: .ok,
                        headers: [.contentType: "text/csv; charset=utf-8; header=present",
                                  .contentDisposition: "attachment; filename=\"\(session.hunt.id)-\(table.rawValue).csv\"",
                                  .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

extension Results: ResponseEncodable {}
