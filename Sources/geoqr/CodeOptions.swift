import ArgumentParser
import Foundation
import GeoQR
import QRImaging

/// How codes are made: the URL form and the error-correction level.
struct CodeOptions: ParsableArguments {
    @Option(name: .customLong("base-url"), help: ArgumentHelp(
        "Print codes as upper-case URLs to the hunt server (e.g. https://192.168.1.20:8443), so a phone's camera app opens the claim page.",
        valueName: "URL"))
    var baseURL: String?

    @Option(help: "Error correction: L (7%), M (15%), Q (25%), H (30%) of the symbol may be damaged.")
    var level: CorrectionLevel = .M

    func validate() throws {
        guard let baseURL else { return }
        guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty else {
            throw ValidationError("--base-url \(baseURL): not an http(s) URL like https://192.168.1.20:8443")
        }
        guard url.query == nil, url.fragment == nil else {
            throw ValidationError("--base-url \(baseURL): must not have a query or fragment")
        }
        let alphanumeric = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:")
        if let bad = baseURL.uppercased().first(where: { !alphanumeric.contains($0) }) {
            throw ValidationError("--base-url \(baseURL): \"\(bad)\" is outside QR alphanumeric mode; use a host name or address with letters, digits, '-', '.' and ':' only")
        }
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
