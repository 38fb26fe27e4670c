import Foundation
import Testing
import ForgeryCorpus
@testable import GeoQR

@Suite struct CacheCodeTests {
    let secret = HuntSecret(bytes: (0..<32).map { UInt8($0) })!
    let hunt = Hunt(id: "DEMO", name: "Demo", caches: [
        Cache(id: "A1", name: "Gate", coordinate: Coordinate(latitude: 40.6303, longitude: -8.6575)),
        Cache(id: "B-2", name: "Pond", coordinate: Coordinate(latitude: 40.6279, longitude: -8.6599)),
    ])

    @Test func aPayloadVerifiesAsItsCache() throws {
        let payload = CacheCode.payload(hunt: "demo", cache: "a1", secret: secret)
        #expect(payload.hasPrefix("GQ1.DEMO.A1."))
        #expect(payload.count == "GQ1.DEMO.A1.".count + 16)
        #expect(try hunt.verify(payload, secret: secret).get().id == "A1")
    }

    @Test func payloadsStayInQRAlphanumericMode() {
        let alphanumeric = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:")
        let longest = CacheCode.payload(hunt: String(repeating: "H", count: 16), cache: String(repeating: "C", count: 12), secret: secret)
        let url = CacheCode.payload(hunt: "DEMO", cache: "A1", secret: secret, baseURL: "https://geoqr-host.local:8443/")
        for p in [longest, url] { #expect(p.allSatisfy { alphanumeric.contains($0) }, "\(p)") }
        #expect(url.hasPrefix("HTTPS://GEOQR-HOST.LOCAL:8443/C/GQ1.DEMO.A1."))
        #expect(longest.count <= 61, "fits QR version 3 at level M")
    }

    @Test func theURLFormVerifiesAndSoDoesItsLowerCaseSpelling() throws {
        let url = CacheCode.payload(hunt: "DEMO", cache: "B-2", secret: secret, baseURL: "https://10.0.0.5:8443")
        #expect(try hunt.verify(url, secret: secret).get().id == "B-2")
        // A phone may lower-case the host; the claim path is matched ignoring case.
        let lowered = url.replacingOccurrences(of: "HTTPS://10.0.0.5:8443/C/", with: "https://10.0.0.5:8443/c/")
        #expect(try hunt.verify(lowered, secret: secret).get().id == "B-2")
    }

    @Test func everyRejectionHasItsReason() {
        let good = CacheCode.payload(hunt: "DEMO", cache: "A1", secret: secret)
        let other = HuntSecret(bytes: [UInt8](repeating: 7, count: 32))!
        #expect(hunt.verify("hello world", secret: secret) == .failure(.malformed))
        #expect(hunt.verify("", secret: secret) == .failure(.malformed))
        #expect(hunt.verify("GQ9.DEMO.A1.AAAAAAAAAAAAAAAA", secret: secret) == .failure(.unknownVersion(9)))
        // Found by the forgery corpus: other spellings of the version number.
        for spelling in ["GQ01", "GQ+1"] {
            #expect(hunt.verify(good.replacingOccurrences(of: "GQ1", with: spelling), secret: secret) == .failure(.malformed))
        }
        #expect(hunt.verify(CacheCode.payload(hunt: "OTHER", cache: "A1", secret: secret), secret: secret) == .failure(.otherHunt("OTHER")))
        #expect(hunt.verify(CacheCode.payload(hunt: "DEMO", cache: "ZZ", secret: secret), secret: secret) == .failure(.unknownCache("ZZ")))
        #expect(hunt.verify(CacheCode.payload(hunt: "DEMO", cache: "A1", secret: other), secret: secret) == .failure(.badMAC))
        #expect(hunt.verify(good + "A", secret: secret) == .failure(.malformed))
        #expect(hunt.verify(good.lowercased(), secret: secret) == .failure(.malformed))
        #expect(hunt.verify("https://host/no-claim-path/" + good, secret: secret) == .failure(.malformed))
    }

    @Test func anUnknownCacheIsOnlyReportedForSignedCodes() {
        // A forger guessing ids learns nothing: a bad MAC is reported before the cache lookup.
        let forged = "GQ1.DEMO.ZZ.AAAAAAAAAAAAAAAA"
        #expect(hunt.verify(forged, secret: secret) == .failure(.badMAC))
    }

    @Test func noSingleCharacterChangeIsAccepted() {
        let good = CacheCode.payload(hunt: "DEMO", cache: "A1", secret: secret)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567.-")
        var accepted = 0
        for i in good.indices {
            for c in alphabet where c != good[i] {
                var mutated = good
                mutated.replaceSubrange(i...i, with: String(c))
                if case .success = hunt.verify(mutated, secret: secret) { accepted += 1 }
            }
        }
        #expect(accepted == 0)
    }

    @Test func randomPayloadsAreNeverAccepted() {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        for _ in 0..<20_000 {
            let mac = String((0..<16).map { _ in alphabet.randomElement(using: &rng)! })
            if case .success = hunt.verify("GQ1.DEMO.A1.\(mac)", secret: secret) { Issue.record("accepted \(mac)") }
        }
    }

    @Test func aHundredThousandForgeriesAreRejected() {
        let genuine = ["A1", "B-2"].map { CacheCode.payload(hunt: "DEMO", cache: $0, secret: secret) }
        var forgeries = ForgeryCorpus(genuine: genuine, seed: 20261121)
        var accepted: [String] = []
        var reachedTheMAC = 0
        for _ in 0..<100_000 {
            let payload = forgeries.next()
            switch hunt.verify(payload, secret: secret) {
            case .success: accepted.append(payload)
            case .failure(.badMAC): reachedTheMAC += 1
            case .failure: break
            }
        }
        #expect(accepted.isEmpty, "accepted: \(accepted.prefix(5))")
        // Not just parser noise: a good share is well formed and is turned away by the MAC.
        #expect(reachedTheMAC > 20_000, "\(reachedTheMAC) forgeries reached the MAC check")
    }

    @Test func macComparisonLooksAtEveryByte() {
        #expect(constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEqual([0, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEqual([1, 2], [1, 2, 3]))
    }

    @Test func secretsDoNotPrintThemselves() {
        #expect("\(secret)" == "HuntSecret(redacted)")
        #expect(!String(reflecting: secret).contains("31"))
        #expect(HuntSecret(bytes: [1, 2, 3]) == nil)
    }

    @Test func base32RoundTrips() {
        for n in 0..<24 {
            let bytes = (0..<n).map { UInt8(($0 * 37 + 11) & 0xFF) }
            #expect(Base32.decode(Substring(Base32.encode(bytes))) == bytes)
        }
        #expect(Base32.decode("A1") == nil)   // '1' is not in the alphabet
    }
}
