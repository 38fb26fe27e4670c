import Foundation
import Hummingbird
import NIOCore

/// Refuses a body larger than its route allows from the Content-Length header alone, before
/// a byte of it is read; bodies sent without a length are cut off at the same limit while read.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let limit = Self.limit(for: request.uri.path)
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError.tooLarge(limit)
        }
        return try await next(request, context)
    }

    static func limit(for path: String) -> Int {
        switch path {
        case "/api/claims/photo", "/api/reports": BodyLimits.photo
        case "/api/claims/frame": BodyLimits.frame
        case _ where path.hasPrefix("/api/caches/") && path.hasSuffix("/photo"): BodyLimits.photo
        default: BodyLimits.json
        }
    }
}

extension APIError {
    static func unsupportedType(_ declared: String, expected: String) -> APIError {
        APIError(.unsupportedMediaType, "unsupported-type", "this endpoint takes \(expected), not \(declared)")
    }

    static func tooLarge(_ limit: Int) -> APIError {
        APIError(.contentTooLarge, "too-large", "the request body is larger than the \(limit / 1024) KiB this endpoint takes")
    }
}

extension Request {
    /// The whole body, refused past `limit` bytes whatever the headers said.
    mutating func collectBody(limit: Int) async throws -> ByteBuffer {
        do {
            return try await body.collect(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.tooLarge(limit)
        }
    }

    /// A JSON body as `T`, within the JSON limit. The body must say it is JSON
    /// (`Content-Type: application/json`, or a `+json` type): anything else is a 415.
    mutating func json<T: Decodable>(_ type: T.Type, limit: Int = BodyLimits.json) async throws -> T {
        guard let value = try await jsonIfSent(type, limit: limit) else {
            throw APIError.badRequest("bad-json", "this endpoint needs a JSON body (see /api/openapi.yaml)")
        }
        return value
    }

    /// Like ``json(_:limit:)`` for endpoints whose body is optional: nil when none was sent.
    mutating func jsonIfSent<T: Decodable>(_ type: T.Type, limit: Int = BodyLimits.json) async throws -> T? {
        let declared = headers[.contentType]
        if let declared, !Self.isJSON(declared) { throw APIError.unsupportedType(declared, expected: "application/json") }
        let buffer = try await collectBody(limit: limit)
        if buffer.readableBytes == 0 { return nil }
        if declared == nil { throw APIError.unsupportedType("no Content-Type", expected: "application/json") }
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: buffer))
        } catch {
            throw APIError.badRequest("bad-json", "the request body is not the JSON this endpoint takes: \(Self.describe(error))")
        }
    }

    /// The body's media type, 415 unless it is one of `accepted` (`image/jpeg`…).
    func requireContentType(_ accepted: Set<String>) throws {
        let declared = headers[.contentType] ?? "no Content-Type"
        guard accepted.contains(Self.mediaType(declared)) else {
            throw APIError.unsupportedType(declared, expected: accepted.sorted().joined(separator: ", "))
        }
    }

    static func isJSON(_ contentType: String) -> Bool {
        let type = mediaType(contentType)
        return type == "application/json" || (type.hasPrefix("application/") && type.hasSuffix("+json"))
    }

    /// `Application/JSON; charset=utf-8` → `application/json`.
    static func mediaType(_ contentType: String) -> String {
        String(contentType.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// A query parameter as a number, 400 when present but not one.
    func number(_ name: String) throws -> Double? {
        guard let text = uri.queryParameters[Substring(name)] else { return nil }
        guard let value = Double(String(text)), value.isFinite else {
            throw APIError.badRequest("bad-query", "\(name)=\(text) is not a number")
        }
        return value
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c):
            "wrong type at \(c.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "not valid JSON"
        }
    }
}
