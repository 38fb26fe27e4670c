import ArgumentParser
import Foundation
import GeoQR
import HuntFiles

/// What `scan` and `watch` judge codes against: the hunt, its secret, and a location given by
/// hand.
struct ClaimOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Where the codes were scanned, when the picture does not say: decimal (40.62790,-8.65990) or the geocaching form (\"N 40° 37.674' W 008° 39.594'\").", valueName: "LAT,LON"))
    var at: String?

    @Option(help: ArgumentHelp("How sure --at is, in metres: it widens each radius, up to the hunt's accuracy cap.", valueName: "M"))
    var accuracy: Double?

    @OptionGroup var dataOptions: DataOptions

    /// --at, read; validate() has already refused a bad one.
    var atCoordinate: Coordinate? { at.flatMap { try? Coordinate(parsing: $0) } }

    func validate() throws {
        if let at {
            do { _ = try Coordinate(parsing: at) } catch { throw ValidationError("--at \(at): \(error)") }
        }
        do { _ = try ClaimLocation.checkedAccuracy(accuracy) } catch { throw ValidationError("--accuracy: \(error)") }
        if accuracy != nil, at == nil {
            throw ValidationError("--accuracy goes with --at: it says how sure that location is")
        }
    }

    /// The --at location, from `source`.
    func location(source: LocationSource) -> ClaimLocation? {
        atCoordinate.map { ClaimLocation(coordinate: $0, accuracy: accuracy, source: source) }
    }

    /// The hunt and the secret its codes were signed with. A hunt with no secret here never
    /// had codes printed from this data directory, so nothing could verify: one line, exit 1.
    func huntAndSecret(_ argument: String) throws -> (Hunt, HuntSecret) {
        let hunt = try loadHunt(argument, quietWarnings: true).hunt
        let data = try dataOptions.directory()
        do {
            guard let secret = try data.existingSecret(forHunt: hunt.id) else {
                throw CommandFailure("hunt \(hunt.id) has no secret in \(data.path): no codes were printed with this data directory (pass --data DIR or set GEOQR_DATA)")
            }
            return (hunt, secret)
        } catch { throw CommandFailure.from(error) }
    }
}

/// One JSON object on one line, keys sorted: `--json` output that `jq` and line-oriented
/// scripts both read.
func printJSONLine(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
}
