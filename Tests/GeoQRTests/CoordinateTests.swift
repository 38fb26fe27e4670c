import Testing
@testable import GeoQR

@Suite struct CoordinateTests {
    @Test func readsTheGeocachingForm() throws {
        let c = try Coordinate(parsing: "N 40° 37.818' W 008° 39.450'")
        #expect(abs(c.latitude - (40 + 37.818 / 60)) < 1e-12)
        #expect(abs(c.longitude + (8 + 39.450 / 60)) < 1e-12)
    }

    @Test func readsDecimalDegrees() throws {
        let c = try Coordinate(parsing: "-33.85681, 151.21514")
        #expect(c == Coordinate(latitude: -33.85681, longitude: 151.21514))
    }

    @Test("geocaching form round-trips to a thousandth of a minute",
          arguments: ["N 40° 37.818' W 008° 39.450'", "S 33° 51.409' E 151° 12.908'", "N 00° 00.000' E 000° 00.000'",
                      "S 89° 59.999' W 179° 59.999'"])
    func roundTrips(_ text: String) throws {
        #expect(try Coordinate(parsing: text).geocachingForm == text)
    }

    @Test func carriesRoundedMinutesIntoTheNextDegree() {
        // 59.9996' rounds to 60.000', which must print as the next degree, not 59° 60.000'.
        let c = Coordinate(latitude: 10 + 59.9996 / 60, longitude: 0)
        #expect(c.geocachingLatitude == "N 11° 00.000'")
    }

    @Test func prefersSouthAndWestSigns() {
        let c = Coordinate(latitude: -0.5, longitude: -0.25)
        #expect(c.geocachingForm == "S 00° 30.000' W 000° 15.000'")
    }

    @Test func refusesOutOfRangeAndGarbage() {
        #expect(throws: CoordinateError.notALatitude(95)) { try Coordinate(parsing: "95, 10") }
        #expect(throws: CoordinateError.notALongitude(-181)) { try Coordinate(parsing: "10, -181") }
        #expect(throws: CoordinateError.unreadable("somewhere nice")) { try Coordinate(parsing: "somewhere nice") }
        #expect(throws: CoordinateError.self) { try Coordinate(parsing: "N 40° 61.000' W 008° 39.450'") }
    }
}
