import Foundation
import GeoQR

/// The ledger's one JSON form (compact, keys sorted, times in milliseconds since 1970),
/// written by hand for the bodies on the hot path: `JSONEncoder` took about 100 µs a find,
/// more than everything else the writer does for it. The bytes are the ones `JSONEncoder`
/// writes with ``BodyCoding``'s settings (a test compares them), so a body reads the same
/// whichever wrote it; and since the hash covers the stored text, the chain never depends on
/// which did.
protocol CanonicalJSONBody {
    /// Writes the value as one JSON object, keys in sorted order.
    func write(to json: inout JSONWriter)
}

extension JSONWriter {
    /// A date as `.millisecondsSince1970` writes it.
    mutating func date(_ value: Date) { number(value.timeIntervalSince1970 * 1000) }

    mutating func body(_ value: some CanonicalJSONBody) { value.write(to: &self) }
}

extension FindRecorded: CanonicalJSONBody {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("awards")
        json.beginArray()
        for award in awards { json.body(award) }
        json.endArray()
        if let card {
            json.key("card")
            json.body(card)
        }
        json.key("claim"); json.body(claim)
        json.key("find"); json.string(find)
        json.key("firstToFind"); json.bool(firstToFind)
        json.endObject()
    }
}

extension ClaimAttempted: CanonicalJSONBody {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("claim"); json.body(claim)
        json.key("verdict"); json.string(verdict.rawValue)
        json.endObject()
    }
}

extension PointsAward: CanonicalJSONBody {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("amount"); json.number(amount)
        json.key("reason"); json.string(reason)
        json.endObject()
    }
}

extension CardGrant: CanonicalJSONBody {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        json.key("cache"); json.string(cache)
        json.key("cacheName"); json.string(cacheName)
        json.key("item"); json.string(item)
        json.key("message"); json.string(message)
        json.endObject()
    }
}

extension ClaimRecord: CanonicalJSONBody {
    func write(to json: inout JSONWriter) {
        json.beginObject()
        if let cache { json.key("cache"); json.string(cache) }
        if let claimID { json.key("claimId"); json.string(claimID) }
        json.key("evidence")
        json.beginObject()
        if let exifTime = evidence.exifTime { json.key("exifTime"); json.date(exifTime) }
        if let photo = evidence.photoSHA256 { json.key("photoSHA256"); json.string(photo) }
        json.endObject()
        json.key("hunt"); json.string(hunt)
        if let lateSeconds { json.key("lateSeconds"); json.number(lateSeconds) }
        if let location {
            json.key("location")
            json.beginObject()
            json.key("lat"); json.number(location.latitude)
            json.key("lon"); json.number(location.longitude)
            json.endObject()
        }
        json.key("method"); json.string(method.rawValue)
        json.key("player"); json.string(player)
        json.key("time"); json.date(time)
        json.key("verdict"); json.string(verdict.rawValue)
        json.endObject()
    }
}
