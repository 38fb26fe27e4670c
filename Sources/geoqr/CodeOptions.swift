import ArgumentParser
import Foundation
import GeoQR
import QRImaging

/// How codes are made: the URL form and the error-correction level.
struct CodeOptions: ParsableArguments {
    @Option(name: .customLong("base-url"), help: ArgumentHelp(
        "Print codes as upper-case URLs to the hunt server (e.g. https://192.168.1.20:8443), so a phone's camera app opens the claim page (default: $GEOQR_PUBLIC_URL, as geoqr serve --public-url).",
        valueName: "URL"), transform: { text in
            do { return try PublicURL(checking: text) } catch { throw ValidationError("--base-url \(error)") }
        })
    var baseURLOption: PublicURL?

    @Option(help: "Error correction: L (7%), M (15%), Q (25%), H (30%) of the symbol may be damaged.")
    var level: CorrectionLevel = .M

    func validate() throws {
        _ = try PublicURL.fromEnvironment()
    }

    /// `--base-url`, else `$GEOQR_PUBLIC_URL`, else none (codes without a URL).
    var baseURL: String? {
        baseURLOption?.text ?? (try? PublicURL.fromEnvironment())?.text
    }

    /// The payload printed for a cache.
    func payload(hunt: Hunt, cache: Cache, secret: HuntSecret) -> String {
        CacheCode.payload(hunt: hunt.id, cache: cache.id, secret: secret, baseURL: baseURL)
    }

    /// Warns once when the longest code needs a QR larger than version 4, which phones read
    /// less reliably from a small printed code.
    func warnIfLarge(_ payloads: [String]) {
        guard let longest = payloads.max(by: { $0.count < $1.count }),
              let capacity = QRSymbol.alphanumericCapacity(version: 4, level: level),
              longest.count > capacity else { return }
        warn("warning: codes of \(longest.count) characters need a QR larger than version 4 at level \(level.rawValue); a shorter --base-url keeps them small")
    }
}
