import Foundation
import GeoQR

// Hunt files as `HuntLibrary.load` reads them from `caches/` for every command and the server:
// the bytes through `HuntParser`, problems rendered as the CLI prints them. A hunt that parses
// must be usable: every cache has a code, a radius and a judgement.

let secret = HuntSecret(bytes: [UInt8](repeating: 7, count: HuntSecret.byteCount))!
let claimedAt = Date(timeIntervalSince1970: 1_760_000_000)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHunt(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Data(bytes: $0, count: count) } ?? Data()
    let parsed: ParsedHunt
    do {
        parsed = try HuntParser.parse(data, file: "caches/fuzz.json")
    } catch {
        _ = error.description
        return 0
    }
    let hunt = parsed.hunt
    for warning in parsed.warnings { _ = warning.description }
    for cache in hunt.caches.prefix(8) {
        let payload = CacheCode.payload(hunt: hunt.id, cache: cache.id, secret: secret)
        guard case .success(let found) = hunt.verify(payload, secret: secret), found.id == cache.id else {
            preconditionFailure("hunt \(hunt.id) does not accept its own code for cache \(cache.id): \(payload)")
        }
        let here = ClaimLocation(coordinate: cache.coordinate, source: .at)
        _ = hunt.judge(payload, secret: secret, claim: Claim(payloads: [payload], location: here, claimedAt: claimedAt)).line
        _ = hunt.trail(of: cache.id)
    }
    return 0
}
