import Foundation
import Testing
@testable import GeoQR

@Suite struct ClaimRulesTests {
    let secret = HuntSecret(bytes: (0..<32).map { UInt8($0) })!
    let otherSecret = HuntSecret(bytes: (0..<32).map { UInt8(255 - $0) })!
    let saltPans = Coordinate(latitude: 40.62790, longitude: -8.65990)
    let now = Date(timeIntervalSince1970: 1_714_640_000)   // 2024-05-02 08:53:20 UTC

    var hunt: Hunt {
        Hunt(id: "DEMO", name: "Campus Quest", defaultRadius: 100, accuracyCap: 50, caches: [
            Cache(id: "A2", name: "Salt pan view", coordinate: saltPans),
            Cache(id: "A3", name: "Pier", coordinate: Coordinate(latitude: 40.6290, longitude: -8.6610), radius: 40),
        ])
    }

    func payload(_ cache: String, hunt huntID: String = "DEMO", secret s: HuntSecret? = nil) -> String {
        CacheCode.payload(hunt: huntID, cache: cache, secret: s ?? secret)
    }

    /// The point `metres` from `origin` along `bearing` (0 north, 90 east), found by bisection
    /// on the inverse geodesic, so the test does not lean on a second geodesy implementation.
    func point(_ metres: Double, from origin: Coordinate, towards bearing: Double) -> Coordinate {
        let (dLat, dLon) = (cos(bearing * .pi / 180), sin(bearing * .pi / 180))
        var (lo, hi) = (0.0, metres / 50_000)   // degrees of arc; 1° is > 50 km everywhere
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            let p = Coordinate(latitude: origin.latitude + dLat * mid, longitude: origin.longitude + dLon * mid)
            if origin.distance(to: p) < metres { lo = mid } else { hi = mid }
        }
        return Coordinate(latitude: origin.latitude + dLat * lo, longitude: origin.longitude + dLon * lo)
    }

    func claim(_ payloads: [String], at coordinate: Coordinate?, accuracy: Double? = nil,
               source: LocationSource = .at, takenAt: Date? = nil, fixTime: Date? = nil) -> Claim {
        Claim(payloads: payloads,
              location: coordinate.map { ClaimLocation(coordinate: $0, accuracy: accuracy, source: source, time: fixTime) },
              takenAt: takenAt, claimedAt: now)
    }

    @Test("99 m is claimable, 100 m is claimable, 101 m is too far", arguments: [(99.0, Verdict.claimable), (100, .claimable), (101, .tooFar)])
    func theRadiusBoundary(distance: Double, expected: Verdict) throws {
        let here = point(distance, from: saltPans, towards: 200)
        let j = try #require(hunt.judge(claim([payload("A2")], at: here), secret: secret).first)
        #expect(j.verdict == expected)
        #expect(abs(try #require(j.distance) - distance) < 1e-6)
        #expect(j.radius == 100 && j.allowed == 100)
        #expect(j.cacheID == "A2" && j.cacheName == "Salt pan view")
    }

    @Test func tooFarSaysHowFarAndWhichWay() throws {
        let here = point(240, from: saltPans, towards: 227)   // the cache is 240 m north-east of here
        let j = try #require(hunt.judge(claim([payload("A2")], at: here), secret: secret).first)
        let leg = Geodesic.inverse(from: here, to: saltPans)
        #expect(j.verdict == .tooFar)
        #expect(j.distance == leg.distance && j.bearing == leg.initialBearing)
        #expect(j.direction == .ne)
        #expect(j.sentence == "Salt pan view is 240 m north-east: walk on.")
        #expect(j.line == "too-far: walk 240 m north-east (bearing \(Int(leg.initialBearing.rounded()))°) to A2 Salt pan view, radius 100 m")
    }

    @Test func accuracyWidensTheRadiusUpToTheHuntsCap() throws {
        let here = point(130, from: saltPans, towards: 0)
        let verdict = { (accuracy: Double?) in hunt.judge(claim([payload("A2")], at: here, accuracy: accuracy, source: .browser), secret: secret)[0] }
        #expect(verdict(nil).verdict == .tooFar)
        #expect(verdict(20).verdict == .tooFar && verdict(20).allowed == 120)
        #expect(verdict(35).verdict == .claimable && verdict(35).allowed == 135)
        #expect(verdict(35).line == "A2 Salt pan view: claimable (130 m, radius 100 m + 35 m accuracy)")
        #expect(verdict(500).allowed == 150, "capped at the hunt's 50 m")
        #expect(verdict(-5).allowed == 100 && verdict(.nan).allowed == 100)
        #expect(verdict(35).location?.source == .browser)
    }

    @Test func aCacheWithItsOwnRadius() throws {
        let pier = hunt.caches[1].coordinate
        let j = hunt.judge(claim([payload("A3")], at: point(12, from: pier, towards: 90)), secret: secret)[0]
        #expect(j.verdict == .claimable && j.radius == 40)
        #expect(j.line == "A3 Pier: claimable (12 m, radius 40 m)")
        #expect(j.sentence == "Pier found: 12 m from the cache.")
    }

    @Test func rejectedCodesMapToVerdicts() throws {
        let judge = { (p: String) in hunt.judge(claim([p], at: saltPans), secret: secret)[0] }
        #expect(judge(payload("A2", secret: otherSecret)).verdict == .forged)
        var tampered = payload("A2")
        tampered.removeLast()
        tampered += payload("A2").hasSuffix("A") ? "B" : "A"
        #expect(judge(tampered).verdict == .forged)
        #expect(judge("GQ1.DEMO.A2.SHORT").verdict == .forged, "GeoQR-looking but damaged")
        #expect(judge("GQ2.DEMO.A2.K3J5M2QX7P4RT6WA").verdict == .forged, "no GeoQR writes version 2")
        #expect(judge("GQ2.DEMO.A2.K3J5M2QX7P4RT6WA").reason?.contains("version 2") == true)
        let other = judge(payload("A2", hunt: "EDINBURGH"))
        #expect(other.verdict == .unknownHunt && other.otherHuntID == "EDINBURGH")
        #expect(other.sentence == "This code belongs to another hunt (EDINBURGH).")
        let gone = judge(payload("Z9"))
        #expect(gone.verdict == .unknownCache && gone.cacheID == "Z9")
        #expect(judge(payload("A2", secret: otherSecret)).distance == nil, "no distance for a code that is not genuine")
    }

    @Test func noGeoQRCodeIsOneNoCodeJudgement() {
        let none = hunt.judge(claim([], at: saltPans), secret: secret)
        #expect(none.count == 1 && none[0].verdict == .noCode && none[0].payload == nil)
        let foreign = hunt.judge(claim(["https://example.org/menu", "hello"], at: saltPans), secret: secret)
        #expect(foreign.count == 1 && foreign[0].verdict == .noCode)
        #expect(foreign[0].line == "no-code: the 2 QR codes there are not GeoQR codes")
        // Beside a genuine code, a foreign QR is not the player's claim.
        let mixed = hunt.judge(claim(["https://example.org/menu", payload("A2")], at: saltPans), secret: secret)
        #expect(mixed.map(\.verdict) == [.claimable])
    }

    @Test func urlFormCodesLookLikeGeoQR() {
        #expect(ClaimRules.looksLikeGeoQR(CacheCode.payload(hunt: "DEMO", cache: "A2", secret: secret, baseURL: "https://10.0.0.5:8443")))
        #expect(ClaimRules.looksLikeGeoQR("gq1.demo.a2.x"))
        #expect(!ClaimRules.looksLikeGeoQR("GQ.DEMO"))
        #expect(!ClaimRules.looksLikeGeoQR("GQL is a query language"))
        #expect(!ClaimRules.looksLikeGeoQR("https://example.org/GQ1.DEMO"))
    }

    @Test func everyCodeOfAClaimIsJudged() {
        let js = hunt.judge(claim([payload("A2"), payload("A3")], at: saltPans), secret: secret)
        #expect(js.map(\.cacheID) == ["A2", "A3"])
        #expect(js.map(\.verdict) == [.claimable, .tooFar])
    }

    @Test func noLocationForAGenuineCode() throws {
        let j = hunt.judge(claim([payload("A2")], at: nil), secret: secret)[0]
        #expect(j.verdict == .noLocation && j.cacheID == "A2" && j.distance == nil)
        #expect(j.line == "A2 Salt pan view: no-location (nothing says where the code was scanned)")
    }

    @Test func theTimeWindowUsesGPSTimeThenCameraTimeThenClaimTime() throws {
        var h = hunt
        h.start = now.addingTimeInterval(-3600)
        h.end = now.addingTimeInterval(3600)
        let early = h.start!.addingTimeInterval(-60), late = h.end!
        let judge = { (c: Claim) in h.judge(c, secret: secret)[0] }
        #expect(judge(claim([payload("A2")], at: saltPans)).verdict == .claimable)
        #expect(judge(claim([payload("A2")], at: saltPans, takenAt: early)).verdict == .outsideTimeWindow)
        #expect(judge(claim([payload("A2")], at: saltPans, takenAt: late)).verdict == .outsideTimeWindow, "end is exclusive")
        #expect(judge(claim([payload("A2")], at: saltPans, takenAt: h.start!)).verdict == .claimable, "start is inclusive")
        let fixFirst = judge(claim([payload("A2")], at: saltPans, takenAt: early, fixTime: now))
        #expect(fixFirst.verdict == .claimable && fixFirst.scanTimeSource == .location)
        let out = judge(claim([payload("A2")], at: nil, takenAt: early))
        #expect(out.verdict == .outsideTimeWindow, "the window is checked before the location")
        #expect(out.scanTimeSource == .camera)
        #expect(out.line == "A2 Salt pan view: outside-time-window (scanned 2024-05-02 07:52 UTC; hunt runs from 2024-05-02 07:53 UTC to 2024-05-02 09:53 UTC)")
        h.start = nil
        #expect(judge(claim([payload("A2")], at: saltPans, takenAt: late)).line.hasSuffix("hunt ended at 2024-05-02 09:53 UTC)"))
        #expect(judge(claim([payload("A2", secret: otherSecret)], at: saltPans, takenAt: late)).verdict == .forged,
                "a forgery is a forgery at any time")
    }

    @Test func verdictCodesAreStable() {
        #expect(Verdict.allCases.map(\.rawValue) == ["claimable", "too-far", "forged", "unknown-hunt", "unknown-cache",
                                                     "no-code", "no-location", "outside-time-window", "already-found", "cache-disabled"])
        #expect(LocationSource.allCases.map(\.rawValue) == ["exif", "at", "browser", "station"])
    }
}
