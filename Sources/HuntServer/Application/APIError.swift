import Foundation
import GeoQR
import Hummingbird
import HuntFiles
import HTTPTypes
import Ledger
import Play
import QRImaging
import Workers

/// An error as the API reports it: an HTTP status and a JSON body
/// `{"error": "wrong-pin", "message": "wrong PIN (4 more before a lockout)"}`. A refusal a
/// player reads carries a ``Phrase``, so its message is written in the request's language
/// (``RequestLanguage``); the code never changes with the language.
///
/// ```swift
/// throw APIError(.unauthorized, "no-token", Phrase("error.no-token"))
/// throw APIError(.badRequest, "bad-code", "a code has at most 512 characters")   // English only
/// ```
public struct APIError: Error, HTTPResponseError, Sendable {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// A stable, kebab-case code for scripts and the web app.
    public let code: String
    /// One sentence a person can act on, in English.
    public let message: String
    /// The message as a phrase, for players who read another language.
    public let phrase: Phrase?
    /// Extra headers (Retry-After on 429).
    public var headers: HTTPFields = [:]

    /// An error whose message is for developers (a malformed request): English only.
    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
        phrase = nil
    }

    /// An error a player reads, in their language.
    public init(_ status: HTTPResponse.Status, _ code: String, _ phrase: Phrase) {
        self.status = status
        self.code = code
        self.message = phrase.description
        self.phrase = phrase
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        let text = phrase?.text(in: RequestLanguage.current) ?? message
        let body = try JSONEncoder().encode(Body(error: code, message: text, retry: isWorthRetrying))
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Sets `Retry-After` to the whole seconds until `date` (at least 1), as a lockout's 429 says
    /// when to come back in its message too.
    mutating func retry(after date: Date, now: Date = Date()) {
        headers[.retryAfter] = String(max(1, Int(date.timeIntervalSince(now).rounded(.up))))
    }

    /// The JSON body: `retry` tells a phone holding a claim whether to keep it and send it again
    /// later (the server is busy, stopped or rate-limiting) or to show the refusal (it was judged).
    private struct Body: Encodable {
        var error, message: String
        var retry: Bool
    }

    /// Whether the same request may be answered otherwise later without the player changing
    /// anything: server faults, a full queue, a rate limit, a stopped hunt. A refusal of the
    /// request itself (a bad code, a wrong PIN, a lockout) is not.
    var isWorthRetrying: Bool {
        status.code >= 500 || status == .requestTimeout
            || ["rate-limited", "hunt-stopped", "one-at-a-time", "too-many-streams"].contains(code)
    }

    static func badRequest(_ code: String, _ message: String) -> APIError { APIError(.badRequest, code, message) }
    static func notFound(_ code: String, _ message: String) -> APIError { APIError(.notFound, code, message) }
    static let noToken = APIError(.unauthorized, "no-token", Phrase("error.no-token"))
    static let badToken = APIError(.unauthorized, "bad-token", Phrase("error.bad-token"))
    /// 507: the data directory's disk is full; nothing was half-written, retrying later works.
    static let storageFull = APIError(.init(code: 507, reasonPhrase: "Insufficient Storage"), "storage-full", Phrase("error.storage-full"))
    static let notAdmin = APIError(.forbidden, "not-admin", Phrase("error.not-admin"))
}

extension APIError {
    /// The API's view of anything a handler throws: game refusals keep their stable codes with
    /// the status that fits; storage faults say the ledger is unavailable; the rest is a 500
    /// whose message names no internals.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let api as APIError: return api
        case let refusal as Refusal: return from(refusal.reason)
        case let rule as GameRuleViolation:
            var api = APIError(status(for: rule), rule.code, rule.phrase)
            if case .lockedOut(let until) = rule { api.retry(after: until) }
            return api
        case let play as PlayError:
            switch play {
            case .huntStopped: return APIError(.conflict, play.code, play.phrase)
            case .badBroadcast, .ambiguousTrackable, .notATypedCode, .tooLate, .badClaimID:
                return APIError(.unprocessableContent, play.code, play.phrase)
            case .typingLockedOut(let until):
                var api = APIError(.tooManyRequests, play.code, play.phrase)
                api.retry(after: until)
                return api
            case .noSecret: return APIError(.internalServerError, play.code, play.phrase)
            }
        case let picture as PictureError: return APIError(.unprocessableContent, "bad-picture", picture.description)
        case let busy as WorkerPoolError: return from(busy)
        case let ledger as LedgerError:
            switch ledger {
            case .locked: return APIError(.serviceUnavailable, "ledger-busy", Phrase("error.ledger-busy"))
            case .full: return .storageFull
            default: return APIError(.internalServerError, "ledger-failed", Phrase("error.ledger-failed"))
            }
        case is FileError:
            // The sessions file beside the ledger: out of space, or the folder gone read-only.
            return .storageFull
        case let http as HTTPError:
            return APIError(http.status, "http-\(http.status.code)", http.body ?? http.status.reasonPhrase)
        case is DecodingError:
            return .badRequest("bad-json", "the request body is not the JSON this endpoint takes (see /api/openapi.yaml)")
        default:
            return APIError(.internalServerError, "internal", Phrase("error.internal"))
        }
    }

    static func status(for rule: GameRuleViolation) -> HTTPResponse.Status {
        switch rule {
        case .wrongPIN: .unauthorized
        case .lockedOut: .tooManyRequests
        case .unknownPlayer, .unknownCache, .unknownItem, .unknownTrade, .unknownReport, .unknownFind, .noHint, .unknownCourse, .noChallenge,
             .noPhotoTask, .unknownSubmission: .notFound
        case .notYourTrade, .notHolding: .forbidden
        case .textTooLarge: .contentTooLarge
        case .tooManyOpenReports, .tooManyOpenTrades, .tooManyPhotos: .tooManyRequests
        case .nameTaken, .nameConfusable, .cacheDisabled, .tradeNotOpen, .tradeExpired, .tradeItemGone, .tradeDuplicateCard,
             .reportAlreadyResolved, .findAlreadyVoided, .cacheNotFoundByPlayer, .trackableNotInCache, .sameCache, .notAMassStart, .notEnoughPoints, .noTriesLeft,
             .photoTaskDone, .submissionAlreadyJudged, .huntNotEnded, .positionsKept:
            .conflict
        default: .unprocessableContent
        }
    }
}

/// Turns every error a route throws into the API's JSON error, so no handler returns
/// Hummingbird's plain-text errors or a stack of internals.
struct APIErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let api = APIError.from(error)
            if api.status == .internalServerError { context.logger.error("\(request.uri.path): \(error)") }
            return try api.response(from: request, context: context)
        }
    }
}
