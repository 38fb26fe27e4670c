import Foundation
import HTTPTypes
import Hummingbird

/// Behind a reverse proxy every connection comes from the proxy, so rate limits and PIN
/// lockouts would count the whole town as one client. The proxy says who its client was in
/// `X-Forwarded-For` (and `X-Forwarded-Proto`); those headers are believed only on
/// connections from the proxies named with `geoqr serve --behind-proxy`. Anyone else can
/// write them too, so from any other address they are ignored.
///
/// ```swift
/// router.add(middleware: ForwardedClientMiddleware(trusted: TrustedProxies(["127.0.0.1"])))
/// ```
struct ForwardedClientMiddleware: RouterMiddleware {
    let trusted: TrustedProxies

    func handle(_ request: Request, context: HuntRequestContext, next: (Request, HuntRequestContext) async throws -> Response) async throws -> Response {
        guard !trusted.isEmpty, let peer = context.remoteAddress?.ipAddress, trusted.contains(peer) else {
            return try await next(request, context)
        }
        var context = context
        let chain = request.headers[values: .forwardedFor].flatMap { $0.split(separator: ",") }
        context.forwardedClient = trusted.client(in: chain.map { $0.trimmingCharacters(in: .whitespaces) })
        context.forwardedSecure = request.headers[.forwardedProto].map { $0.lowercased() == "https" }
        var response = try await next(request, context)
        // Behind a proxy that speaks HTTPS with a real certificate, phones should never try
        // plain HTTP again (a café's Wi-Fi could answer it). Never on a LAN's self-signed
        // certificate: there HSTS would forbid clicking through the warning.
        if context.forwardedSecure == true { response.headers[.strictTransportSecurity] = "max-age=86400" }
        return response
    }
}

/// The addresses of the reverse proxies whose forwarding headers are believed.
public struct TrustedProxies: Sendable, Equatable {
    private let addresses: Set<String>

    /// IPv4 or IPv6 addresses, as the proxy connects from (`127.0.0.1`, `::1`).
    public init(_ addresses: [String]) {
        self.addresses = Set(addresses.map(Self.normalized))
    }

    public var isEmpty: Bool { addresses.isEmpty }

    func contains(_ address: String) -> Bool { addresses.contains(Self.normalized(address)) }

    /// The client in an `X-Forwarded-For` chain: proxies append the address they heard from,
    /// so reading from the right, the first address that is not one of ours is the client's
    /// (anything left of it the client could have written itself).
    func client(in chain: [String]) -> String? {
        chain.reversed().first { !$0.isEmpty && !contains($0) }.map(Self.normalized)
    }

    /// `::ffff:203.0.113.9` (an IPv4 client on an IPv6 socket) is `203.0.113.9`.
    static func normalized(_ address: String) -> String {
        let lower = address.lowercased()
        return lower.hasPrefix("::ffff:") && lower.contains(".") ? String(lower.dropFirst(7)) : lower
    }

    /// Whether `text` reads as an IP address (what `--behind-proxy` takes).
    public static func isAddress(_ text: String) -> Bool {
        var v4 = in_addr(), v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }
}

extension HTTPField.Name {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!
    static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")!
    static let strictTransportSecurity = HTTPField.Name("Strict-Transport-Security")!
}
