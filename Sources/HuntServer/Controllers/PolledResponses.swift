import Foundation
import GeoQR
import Hummingbird
import Ledger

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
        json.key("radius_m"); json.number(radius_m)
        if let hint { json.key("hint"); json.string(hint) }
        json.key("found"); json.bool(found)
        json.key("disabled"); json.bool(disabled)
        json.key("flagged"); json.bool(flagged)
        if let latitude { json.key("latitude"); json.number(latitude) }
        if let longitude { json.key("longitude"); json.number(longitude) }
        if let distance_m { json.key("distance_m"); json.number(distance_m) }
        if let bearing_deg { json.key("bearing_deg"); json.number(bearing_deg) }
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
        json.endObject()
        return .json(json)
    }
}

extension Standing {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("player"); json.string(player)
        json.key("name"); json.string(name)
        json.key("points"); json.number(points)
        json.key("finds"); json.number(finds)
        json.endObject()
    }
}

extension ClaimResult: ResponseGenerator {
    func response(from request: Request, context: some RequestContext) throws -> Response {
        var json = JSONWriter()
        write(to: &json)
        return .json(json)
    }

    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("verdict"); json.string(verdict)
        json.key("sentence"); json.string(sentence)
        if let cache { json.key("cache"); json.string(cache) }
        if let cache_name { json.key("cache_name"); json.string(cache_name) }
        if let distance_m { json.key("distance_m"); json.number(distance_m) }
        if let bearing_deg { json.key("bearing_deg"); json.number(bearing_deg) }
        if let direction { json.key("direction"); json.string(direction) }
        if let radius_m { json.key("radius_m"); json.number(radius_m) }
        if let allowed_m { json.key("allowed_m"); json.number(allowed_m) }
        if let location_source { json.key("location_source"); json.string(location_source) }
        if let message { json.key("message"); json.string(message) }
        if let points { json.key("points"); json.number(points) }
        if let find { json.key("find"); json.string(find) }
        if let first_to_find { json.key("first_to_find"); json.bool(first_to_find) }
        json.endObject()
    }
}

extension Response {
    /// 200 with the written JSON, labelled as Hummingbird labels `JSONEncoder`'s.
    static func json(_ json: JSONWriter) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: json.bytes)))
    }
}
