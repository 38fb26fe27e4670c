import Foundation
import GeoQR

// Cache codes as a claim meets them (`Hunt.judge`, which `geoqr claim`, `geoqr scan` and every
// claim route call): the input's first line is a location as `--at` takes it, the other lines
// are decoded payloads, judged as sent and upper-cased as the link route does. One rule must
// hold whatever the bytes: no payload passes `verify` unless it is the code this hunt's secret
// signs for that cache, so a forged or altered code is never accepted.

let secret = HuntSecret(bytes: (0..<HuntSecret.byteCount).map { UInt8($0) })!
let hunt = Hunt(id: "DEMO", name: "Fuzz hunt", defaultRadius: 40, caches: [
    Cache(id: "A1", name: "Rectorate steps", coordinate: Coordinate(latitude: 40.63030, longitude: -8.65750)),
    Cache(id: "A2", name: "Salt pan view", coordinate: Coordinate(latitude: 40.62790, longitude: -8.65990), radius: 25),
    Cache(id: "GC1BKP3", name: "Antimeridian", coordinate: Coordinate(latitude: -16.5, longitude: 179.99)),
    Cache(id: "N9", name: "Pole", coordinate: Coordinate(latitude: 90, longitude: 0)),
])
let claimedAt = Date(timeIntervalSince1970: 1_760_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCode(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: start, count: start == nil ? 0 : count), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let at = lines.isEmpty ? "" : lines.removeFirst()
    let location = (try? Coordinate(parsing: at)).map { ClaimLocation(coordinate: $0, accuracy: 12, source: .at) }
    for payload in lines + lines.map({ $0.uppercased() }) {
        _ = ClaimRules.looksLikeGeoQR(payload)
        if let code = try? CacheCode(parsing: payload) { _ = code.isAuthentic(with: secret) }
        if case .success(let cache) = hunt.verify(payload, secret: secret) {
            let genuine = CacheCode.payload(hunt: hunt.id, cache: cache.id, secret: secret)
            let mac = genuine.split(separator: ".").last!
            precondition(payload.uppercased().contains(mac), "accepted \(payload.debugDescription), genuine is \(genuine)")
        }
    }
    let judgements = hunt.judge(Claim(payloads: lines, location: location, claimedAt: claimedAt), secret: secret)
    for j in judgements { _ = (j.sentence, j.line) }
    return 0
}
