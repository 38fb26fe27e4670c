import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import QRImaging

/// Options every command that signs or checks codes takes.
struct DataOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Data directory holding hunt secrets (default: $GEOQR_DATA, else ~/.local/share/geoqr).", valueName: "DIR"))
    var data: String?

    func directory() throws -> DataDirectory {
        do { return try DataDirectory(path: data) } catch { throw CommandFailure(error.description) }
    }
}

extension CorrectionLevel: ExpressibleByArgument {}
