import Foundation
import GeoQR
@testable import Ledger
import Testing

/// The hand-written JSON of the hot path's bodies is byte for byte what JSONEncoder writes
/// with the ledger's settings, and reads back to the same values.
@Suite("Canonical JSON of event bodies")
struct CanonicalJSONTests {
    static let strings = ["", "A1", "Site 12", "quote \" and back\\slash", "a/b", "tab\tnew\nline\rcr", "\u{0}\u{1}\u{8}\u{b}\u{c}\u{1f}\u{7f}",
                          "é ü 中文 🎉", "\u{2028}\u{2029}", "<script>&'"]

    func claim(_ i: Int, _ rng: inout some RandomNumberGenerator) -> ClaimRecord {
        let s = Self.strings
        let location: Coordinate? = i % 5 == 0 ? nil : Coordinate(
            latitude: [40.0, -0.0, 1e-7, 40.6302][i % 4] + (i % 3 == 0 ? Double.random(in: -90...90, using: &rng) : 0),
            longitude: Double.random(in: -180...180, using: &rng))
        let time = i % 2 == 0 ? Date(millisecondsSince1970: Int64.random(in: 0...4_000_000_000_000, using: &rng))
                              : Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &rng))
        return ClaimRecord(player: "P\(i)", hunt: s[i % s.count], cache: i % 7 == 0 ? nil : s[(i + 3) % s.count],
                           time: time, location: location, method: ClaimMethod.allCases[i % ClaimMethod.allCases.count],
                           evidence: ClaimEvidence(photoSHA256: i % 2 == 0 ? nil : String(repeating: "ab", count: 32),
                                                   exifTime: i % 3 == 0 ? nil : time.addingTimeInterval(-1.5)),
                           verdict: i % 4 == 0 ? .claimable : Verdict.allCases[i % Verdict.allCases.count])
    }

    @Test func findAndAttemptBodiesMatchJSONEncoderByteForByte() throws {
        var rng = SystemRandomNumberGenerator()
        for i in 0..<2000 {
            let c = claim(i, &rng)
            let s = Self.strings
            let find = FindRecorded(find: "F\(i)", claim: c, firstToFind: i % 2 == 0,
                                    awards: Array([PointsAward(reason: "cache", amount: i - 1000),
                                                   PointsAward(reason: s[i % s.count], amount: 5)].prefix(i % 3)),
                                    card: i % 4 == 0 ? nil : CardGrant(item: "C\(i)", cache: s[i % s.count],
                                                                      cacheName: s[(i + 1) % s.count], message: s[(i + 2) % s.count]))
            let fast = try BodyCoding.encode(find), slow = try BodyCoding.encodeWithJSONEncoder(find)
            try #require(fast == slow, "find \(i)")
            let back = try BodyCoding.decode(FindRecorded.self, from: fast)
            #expect(back.find == find.find && back.awards == find.awards && back.card?.message == find.card?.message
                     && back.claim.cache == c.cache && back.claim.location == c.location && back.claim.verdict == c.verdict)

            let attempt = ClaimAttempted(claim: c, verdict: .tooFar)
            try #require(try BodyCoding.encode(attempt) == BodyCoding.encodeWithJSONEncoder(attempt), "attempt \(i)")
        }
    }

    @Test func otherBodiesStillGoThroughJSONEncoder() throws {
        let body = PointsAdjusted(player: "P1", amount: -5, reason: "late")
        #expect(try BodyCoding.encode(body) == #"{"amount":-5,"player":"P1","reason":"late"}"#)
    }
}
