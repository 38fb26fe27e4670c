import Foundation
import Testing
@testable import GeoQR

/// The anti-cheat rules: what they flag and, as much, what they leave alone.
@Suite struct CheatFlagsTests {
    let a1 = Coordinate(latitude: 40.6400, longitude: -8.6500)
    let a2 = Coordinate(latitude: 40.6490, longitude: -8.6500)   // about 1 km north of A1
    let t0 = Date(timeIntervalSince1970: 1_750_000_000)

    var hunt: Hunt {
        Hunt(id: "TEST", name: "Test", caches: [
            Cache(id: "A1", name: "Bridge", coordinate: a1),
            Cache(id: "A2", name: "Mill", coordinate: a2),
        ])
    }

    /// A point a few metres from `c`, as a phone's GPS would give.
    func near(_ c: Coordinate) -> Coordinate { Coordinate(latitude: c.latitude + 0.00003, longitude: c.longitude - 0.00002) }

    func find(_ id: String, _ player: String, _ cache: String, after seconds: Double, at: Coordinate? = nil,
              photo: String? = nil) -> FindFacts {
        let site = cache == "A1" ? a1 : a2
        return FindFacts(id: id, player: player, cache: cache, time: t0.addingTimeInterval(seconds),
                         location: at ?? near(site), photoSHA256: photo)
    }

    @Test func travelFasterThan200KmhIsFlaggedOnTheLaterFind() throws {
        let flags = CheatFlags.flags([
            find("F1", "P1", "A1", after: 0), find("F2", "P1", "A2", after: 10),     // ~1 km in 10 s
            find("F3", "P2", "A1", after: 0), find("F4", "P2", "A2", after: 1200),   // ~1 km in 20 min
        ], in: hunt)
        #expect(flags.map(\.kind) == [.tooFast])
        let flag = try #require(flags.first)
        #expect(flag.find == "F2")
        #expect(flag.otherFind == "F1")
        #expect(flag.player == "P1")
        #expect(flag.detail.contains("km/h"), "\(flag.detail)")
    }

    @Test func theSpeedLimitIsExclusiveAndMeasuredOnTheEllipsoid() {
        let metres = near(a1).distance(to: near(a2))
        let atLimit = metres / (200 / 3.6)   // seconds for exactly 200 km/h
        let slower = CheatFlags.flags([find("F1", "P1", "A1", after: 0), find("F2", "P1", "A2", after: atLimit + 0.5)], in: hunt)
        let faster = CheatFlags.flags([find("F1", "P1", "A1", after: 0), find("F2", "P1", "A2", after: atLimit - 0.5)], in: hunt)
        #expect(slower.isEmpty)
        #expect(faster.map(\.kind) == [.tooFast])
        // The same instant in two places is infinitely fast; the same place twice is no travel.
        #expect(CheatFlags.speedKmh(metres: 5, seconds: 0) == .infinity)
        #expect(CheatFlags.speedKmh(metres: 0, seconds: 0) == nil)
    }

    @Test func onlyNeighbouringFindsOfOnePlayerAreCompared() {
        // Finds handed in out of order are sorted by time first: F3 (A2) sits between F1 and F2
        // in time, each hop slow enough.
        let flags = CheatFlags.flags([
            find("F1", "P1", "A1", after: 0), find("F2", "P1", "A1", after: 2400),
            find("F3", "P1", "A2", after: 1200),
            // Another player far away at the same time is not this player's travel.
            find("F4", "P2", "A2", after: 1),
        ], in: hunt)
        #expect(flags.isEmpty, "\(flags)")
    }

    @Test func theSamePhotoByTwoPlayersIsFlaggedOnceOnTheLaterFind() throws {
        let flags = CheatFlags.flags([
            find("F1", "P1", "A1", after: 0, photo: "abc"),
            find("F2", "P2", "A1", after: 3600, photo: "abc"),
            find("F3", "P1", "A2", after: 7200, photo: "abc"),   // the same player's own photo again: not flagged
            find("F4", "P3", "A2", after: 7300, photo: "def"),
        ], in: hunt)
        #expect(flags.map(\.kind) == [.samePhoto])
        #expect(flags.first?.find == "F2")
        #expect(flags.first?.otherFind == "F1")
    }

    @Test func exactlyTheCachesCoordinatesIsFlaggedButANearbyFixIsNot() {
        let off = Coordinate(latitude: a1.latitude + 0.0000001, longitude: a1.longitude)
        let flags = CheatFlags.flags([
            find("F1", "P1", "A1", after: 0, at: a1),
            find("F2", "P2", "A1", after: 0, at: off),
        ], in: hunt)
        #expect(flags.map(\.find) == ["F1"])
        #expect(flags.map(\.kind) == [.exactCoordinates])
    }

    @Test func flagsComeInTheOrderOfTheirFinds() {
        let flags = CheatFlags.flags([
            find("F10", "P2", "A2", after: 5, at: a2, photo: "x"),
            find("F9", "P1", "A1", after: 0, photo: "x"),
        ], in: hunt)
        #expect(flags.map(\.find) == ["F10", "F10"])
        #expect(flags.map(\.kind) == [.samePhoto, .exactCoordinates])
    }
}
