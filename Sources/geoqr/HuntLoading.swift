import ArgumentParser
import Foundation
import GeoQR
import HuntFiles
import QRImaging

/// Loads a hunt, printing its warnings; on errors prints the first and exits 1.
func loadHunt(_ argument: String, quietWarnings: Bool = false) throws -> ParsedHunt {
    do {
        let parsed = try HuntLibrary().load(argument)
        if !quietWarnings { parsed.warnings.forEach { warn($0.description) } }
        return parsed
    } catch {
        throw CommandFailure(error.description)
    }
}
