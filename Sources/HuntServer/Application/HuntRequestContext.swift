import Foundation
import Hummingbird
import NIOCore
import Play

/// The request context every hunt-server route sees: Hummingbird's core storage plus the
/// peer's address (for rate limits) and a body limit that routes raise only where they must.
///
/// ```swift
/// let router = Router(context: HuntRequestContext.self)
/// ```
public struct HuntRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's own per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// Who is connected, as the socket says (nil in router tests).
    public let remoteAddress: SocketAddress?
    /// The connection the request came on; an event stream writes to it directly
    /// (``LiveMailbox/writeDirectly(to:after:)``).
    public let channel: any Channel
    /// The client a trusted reverse proxy forwarded this request for (``ForwardedClientMiddleware``).
    public var forwardedClient: String?
    /// Whether that proxy says the client connected over HTTPS.
    public var forwardedSecure: Bool?

    /// JSON bodies are small: 64 KiB. Upload routes collect their own, larger, bodies with
    /// an explicit limit (see ``BodyLimits``).
    public var maxUploadSize: Int { BodyLimits.json }

    /// One encoder for every response (Hummingbird's default makes one per request).
    public var responseEncoder: JSONEncoder { Self.encoder }
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.channel = source.channel
    }

    /// The address rate limits and PIN lockouts count against: the client a trusted proxy
    /// names, else the peer's IP, else "local" (router tests).
    var clientKey: String { forwardedClient ?? remoteAddress?.ipAddress ?? "local" }

    /// The network joins and sign-ins are rate-limited by: ``clientKey``, an IPv6 address cut to
    /// its /64 (``Play/Guesses/network(of:)``). One home or phone is given a whole /64, so
    /// counting single IPv6 addresses would give one client 2^64 buckets.
    var clientNetwork: String { Guesses.network(of: clientKey) }
}

/// How many bytes each kind of request body may have. Checked against Content-Length before
/// anything is read, and again while reading, so a lying header cannot get more in.
public enum BodyLimits {
    /// JSON requests: join, claims by link, trades, reports.
    public static let json = 64 * 1024
    /// A downscaled camera frame from the browser.
    public static let frame = 2 * 1024 * 1024
    /// A full-size photo from a phone (12 MP JPEG or HEIC), with the multipart wrapping.
    public static let photo = 20 * 1024 * 1024
}
