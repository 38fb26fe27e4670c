import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play

// Written with `JSONWriter` rather than `JSONEncoder`: encoding the answers every phone polls
// by reflection took more of the server's time than everything else those requests do (a `perf`
// profile under Benchmarks/server.sh). The JSON means the same as `JSONEncoder`'s:
// `ServerCachingTests` parses both and compares.

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
        json.key("next"); json.bool(next)
        json.key("disabled"); json.bool(disabled)
        json.key("flagged"); json.bool(flagged)
        if let latitude { json.key("latitude"); json.number(latitude) }
        if let longitude { json.key("longitude"); json.number(longitude) }
        if let distanceM { json.key("distanceM"); json.number(distanceM) }
        if let bearingDeg { json.key("bearingDeg"); json.number(bearingDeg) }
        if let direction { json.key("direction"); json.string(direction) }
        if let challenge { json.key("challenge"); json.string(challenge) }
        json.endObject()
    }
}
