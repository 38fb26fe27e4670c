import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

// The answers every phone polls (the cache list, the leaderboard) and the answer to every
// claim, written with `JSONWriter` rather than `JSONEncoder`: encoding them by reflection took
// more of the server's time than everything else those requests do (a `perf` profile under
// Benchmarks/server.sh). The JSON means the same as `JSONEncoder`'s: `ServerCachingTests`
// parses both and compares.

extension CacheList: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        var json = JSONWriter()
        json.beginObject()
        json.key("caches")
        json.beginArray()
        for cache in caches { cache.write(to: &json) }
        json.endArray()
        json.endObject()
        return .json(json)
    }
}

extension CacheView {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("id"); json.string(id)
        json.key("name"); json.string(name)
        if let trail { json.key("trail"); json.string(trail) }
        json.key("difficulty"); json.number(difficulty)
        json.key("terrain"); json.number(terrain)
        json.key("points"); json.number(points)
        json.key("radiusM"); json.number(radiusM)
        if let hint { json.key("hint"); json.string(hint) }
        if let hintCost { json.key("hintCost"); json.number(hintCost) }
        if let hintRevealed { json.key("hintRevealed"); json.bool(hintRevealed) }
        json.key("found"); json.bool(found)
        json.key("disabled"); json.bool(disabled)
        json.key("flagged"); json.bool(flagged)
        if let latitude { json.key("latitude"); json.number(latitude) }
        if let longitude { json.key("longitude"); json.number(longitude) }
        if let distanceM { json.key("distanceM"); json.number(distanceM) }
        if let bearingDeg { json.key("bearingDeg"); json.number(bearingDeg) }
        if let direction { json.key("direction"); json.string(direction) }
        json.endObject()
    }
}

extension Leaderboard: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) throws -> Response {
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
        return .json(json)
    }
}

extension Standing {
    func write(to json: inout JSONWriter) {
        json.beginObject()
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
        json.key("team"); json.string(team)
        json.key("points"); json.number(points)
        json.key("finds"); json.number(finds)
        json.key("players"); json.number(players)
        json.endObject()
    }
}

/// The phone's answer to a claim: the best of the claim's answers (``Play/ClaimAnswers/best``),
/// written from ``Play/ClaimAnswer/fields`` like every other claim answer.
struct ClaimAnswerResponse: ResponseGenerator {
    let answer: ClaimAnswer

    init(_ answers: ClaimAnswers) { answer = answers.best }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var json = JSONWriter()
        answer.write(to: &json, in: RequestLanguage.current)
        return .json(json)
    }
}

extension Response {
    /// 200 with the written JSON, labelled as Hummingbird labels `JSONEncoder`'s.
    static func json(_ json: JSONWriter) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: json.bytes)))
    }
}
