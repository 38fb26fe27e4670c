import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

// Written with `JSONWriter` rather than `JSONEncoder`: encoding the answers every phone polls
// by reflection took more of the server's time than everything else those requests do (a `perf`
// profile under Benchmarks/server.sh). The JSON means the same as `JSONEncoder`'s:
// `ServerCachingTests` parses both and compares.

extension Leaderboard: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        .json(written)
    }

    /// The answer's JSON, as ``RankedStandings`` keeps it between changes.
    var written: JSONWriter {
        var json = JSONWriter()
        json.beginObject()
        json.key("standings")
        json.beginArray()
        for standing in standings { standing.write(to: &json) }
        json.endArray()
        json.key("teams")
        json.beginArray()
        for team in teams { team.write(to: &json) }
        json.endArray()
        json.endObject()
        return json
    }
}

extension Results.Placing {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("rank"); json.number(rank)
        json.key("player"); json.string(player)
        json.key("name"); json.string(name)
        if let team { json.key("team"); json.string(team) }
        json.key("points"); json.number(points)
        json.key("finds"); json.number(finds)
        json.endObject()
    }
}

extension TeamStanding {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("rank"); json.number(rank)
        json.key("team"); json.string(team)
        json.key("points"); json.number(points)
        json.key("finds"); json.number(finds)
        json.key("players"); json.number(players)
        json.endObject()
    }
}
