import Foundation
import GeoQR
import Hummingbird
import Ledger
import Play
import QRImaging

/// Claims, three ways: (a) a photo upload, located by its EXIF GPS or the browser; (b) a
/// camera frame from the browser, with the browser's location; (c) the code itself, from the
/// URL form opened in the phone's browser, with the browser's location.
struct ClaimController {
    let session: ServedHunt

    func addRoutes(to group: RouterGroup<HuntRequestContext>) {
        group.post("claims", use: claimCode)
        group.post("claims/frame", use: claimFrame)
        group.post("claims/photo", use: claimPhoto)
    }

    /// `{"code": "GQ1.DEMO.A1.…", "latitude": …, "longitude": …, "accuracy": 12}`; a claim the
    /// phone kept while offline adds `"claimId"` and `"scannedAt"` (ISO 8601).
    struct CodeClaim: Decodable {
        var code: String
        var latitude: Double?
        var longitude: Double?
        var accuracy: Double?
        /// `link` (default), `camera` when the phone decoded the code itself, `typed` for the
        /// short code printed under the QR.
        var method: String?
        var claimId: String?
        var scannedAt: String?
    }

    @Sendable func claimCode(_ request: Request, context: HuntRequestContext) async throws -> ClaimAnswerResponse {
        let player = try await session.player(request)
        try session.limiter.admit(.claim, client: player)
        var request = request
        let body = try await request.json(CodeClaim.self)
        guard body.code.count <= 512 else { throw APIError.badRequest("bad-code", "a code has at most 512 characters") }
        let method: ClaimMethod
        switch body.method {
        case nil, "link": method = .link
        case "camera": method = .camera
        case "typed": method = .typed
        case let other?: throw APIError(.unprocessableContent, "bad-method", "method is `link`, `camera` or `typed`, not `\(other.prefix(40))`")
        }
        var scannedAt: Date?
        if let text = body.scannedAt {
            guard let date = parseISOTime(text) else {
                throw APIError(.unprocessableContent, "bad-scanned-at", "scannedAt is not an ISO 8601 time: \(text.prefix(40))")
            }
            scannedAt = date
        }
        let location = try Self.location(body.latitude, body.longitude, body.accuracy)
        let sending = Sending(claimID: body.claimId, scannedAt: scannedAt)
        return ClaimAnswerResponse(try await session.act {
            try await session.game.claimCode(body.code, at: location, method: method, by: player, sending: sending)
        })
    }

    /// The body is one JPEG or PNG frame; the location comes in the query
    /// (`?latitude=…&longitude=…&accuracy=…`). Frames without a code are not recorded.
    @Sendable func claimFrame(_ request: Request, context: HuntRequestContext) async throws -> ClaimAnswerResponse {
        let player = try await session.player(request)
        try session.limiter.admit(.frame, client: player)
        let location = try Self.location(try request.number("latitude"), try request.number("longitude"), try request.number("accuracy"))
        try request.requireContentType(Self.pictureTypes)
        var request = request
        let bytes = Data(buffer: try await request.collectBody(limit: BodyLimits.frame))
        return ClaimAnswerResponse(try await session.act {
            try await session.game.claimFrame(bytes, at: location, by: player, limits: PictureLimits(maxFileBytes: BodyLimits.frame))
        })
    }

    @Sendable func claimPhoto(_ request: Request, context: HuntRequestContext) async throws -> ClaimAnswerResponse {
        let player = try await session.player(request)
        try session.limiter.admit(.claim, client: player)
        let form = try await Self.photoForm(request)
        let fallback = try Self.location(try Self.number(form.latitude, "latitude"), try Self.number(form.longitude, "longitude"),
                                         try Self.number(form.accuracy, "accuracy"))
        return ClaimAnswerResponse(try await session.act {
            try await session.game.claimPhoto(form.photo, by: player, fallback: fallback,
                                              limits: PictureLimits(maxFileBytes: BodyLimits.photo))
        })
    }

    static func photoForm(_ request: Request) async throws -> PhotoForm {
        guard let type = request.headers[.contentType], let boundary = PhotoForm.boundary(contentType: type) else {
            throw APIError.badRequest("not-multipart", "send the photo as multipart/form-data with a `photo` part")
        }
        var request = request
        let buffer = try await request.collectBody(limit: BodyLimits.photo)
        do { return try PhotoForm.decode(buffer, boundary: boundary) } catch {
            throw APIError.badRequest("bad-form", error.description)
        }
    }

    /// What a camera frame may be sent as.
    static let pictureTypes: Set = ["image/jpeg", "image/png", "image/heic", "image/heif"]

    /// A form field as a number: absent or empty is none, anything else must be one.
    static func number(_ text: String?, _ name: String) throws -> Double? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard let value = Double(text), value.isFinite else {
            throw APIError.badRequest("bad-form", "the form's \(name) is not a number: \(text.prefix(40))")
        }
        return value
    }

    /// A browser location from optional parts: none means no location; half of one is a 400.
    static func location(_ latitude: Double?, _ longitude: Double?, _ accuracy: Double?) throws -> ClaimLocation? {
        _ = try Position.accuracy(accuracy)
        switch (latitude, longitude) {
        case (nil, nil): return nil
        case let (lat?, lon?): return try Position(latitude: lat, longitude: lon, accuracy: accuracy).checked()
        default: throw APIError.badRequest("bad-location", "give both latitude and longitude, or neither")
        }
    }
}

/// Reads an ISO 8601 time as a browser's `toISOString()` writes it (`2026-11-28T09:41:07.123Z`)
/// or without the fraction. A formatter per call: on Linux they are not safe to share between
/// threads, and only claims kept offline carry a time.
func parseISOTime(_ text: String) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    if let date = formatter.date(from: text) { return date }
    formatter.formatOptions = [.withInternetDateTime]
    return formatter.date(from: text)
}
