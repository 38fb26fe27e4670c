import ArgumentParser
import Foundation

/// The address players reach the hunt server at, when it is not this machine's own: the
/// public server's `https://hunt.example.org` behind a proxy (`geoqr serve --public-url`), or
/// the laptop's LAN address printed into codes (`geoqr print --base-url`). Both read
/// `$GEOQR_PUBLIC_URL` when not given, so a server's codes, join QR and admin link agree.
///
/// ```swift
/// let url = try PublicURL(checking: "https://hunt.example.org")
/// url.text      // "https://hunt.example.org"
/// ```
struct PublicURL: ExpressibleByArgument, Sendable, Equatable {
    /// Scheme, host and port, without a trailing slash.
    let text: String

    /// The environment variable both commands fall back on.
    static let environmentKey = "GEOQR_PUBLIC_URL"

    /// `$GEOQR_PUBLIC_URL`, checked; nil when unset or empty.
    static func fromEnvironment() throws -> PublicURL? {
        guard let value = ProcessInfo.processInfo.environment[environmentKey], !value.isEmpty else { return nil }
        do { return try PublicURL(checking: value) } catch { throw ValidationError("$\(environmentKey): \(error)") }
    }

    init?(argument: String) {
        guard let url = try? PublicURL(checking: argument) else { return nil }
        self = url
    }

    static var defaultCompletionKind: CompletionKind { .default }

    /// Why a text is not a URL that codes can carry and phones can open.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    init(checking text: String) throws(Problem) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty else {
            throw Problem(description: "\(text): not an http(s) URL like https://192.168.1.20:8443")
        }
        guard url.query == nil, url.fragment == nil, url.path.isEmpty || url.path == "/" else {
            throw Problem(description: "\(text): give only the scheme, host and port (geoqr serves from the root of its address)")
        }
        let alphanumeric = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:")
        if let bad = text.uppercased().first(where: { !alphanumeric.contains($0) }) {
            throw Problem(description: "\(text): \"\(bad)\" is outside QR alphanumeric mode; use a host name or address with letters, digits, '-', '.' and ':' only")
        }
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.text = trimmed
    }
}

extension PublicURL.Problem: LocalizedError {
    var errorDescription: String? { description }
}
