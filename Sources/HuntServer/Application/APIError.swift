import Foundation
import GeoQR
import Hummingbird
import HuntFiles
import HTTPTypes
import Ledger
import Play
import QRImaging

/// An error as the API reports it: an HTTP status and a JSON body
/// `{"error": "wrong-pin", "message": "wrong PIN (4 more before a lockout)"}`.
///
/// ```swift
/// throw APIError(.unauthorized, "no-token", "sign in first: this needs a player token")
/// ```
public struct APIError: Error, HTTPResponseError, Sendable {
    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// A stable, kebab-case code for scripts and the web app.
    public let code: String
    /// One sentence a person can act on.
    public let message: String
    /// Extra headers (Retry-After on 429).
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        let body = try JSONEncoder().encode(["error": code, "message": message])
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func badRequest(_ code: String, _ message: String) -> APIError { APIError(.badRequest, code, message) }
    static func notFound(_ code: String, _ message: String) -> APIError { APIError(.notFound, code, message) }
    static let noToken = APIError(.unauthorized, "no-token", "sign in first: this needs a player token (Authorization: Bearer …)")
    static let badToken = APIError(.unauthorized, "bad-token", "this session is not known here: join or sign in again")
    /// 507: the data directory's disk is full; nothing was half-written, retrying later works.
    static let storageFull = APIError(.init(code: 507, reasonPhrase: "Insufficient Storage"), "storage-full",
                                      "the server's disk is full: nothing was recorded; try again once the game master has freed space")
    static let notAdmin = APIError(.forbidden, "not-admin", "this needs the game master's admin token")
}

extension APIError {
    /// The API's view of anything a handler throws: game refusals keep their stable codes with
    /// the status that fits; storage faults say the ledger is unavailable; the rest is a 500
    /// whose message names no internals.
    static func from(_ error: any Error) -> APIError {
        switch error {
        case let api as APIError: return api
        case let refusal as Refusal: return from(refusal.reason)
        case let rule as GameRuleViolation: return APIError(status(for: rule), rule.code, rule.description)
        case let play as PlayError:
            switch play {
            case .huntStopped: return APIError(.conflict, play.code, play.description)
            case .badBroadcast, .ambiguousTrackable: return APIError(.unprocessableContent, play.code, play.description)
            case .noSecret: return APIError(.internalServerError, play.code, play.description)
            }
        case let picture as PictureError: return APIError(.unprocessableContent, "bad-picture", picture.description)
        case let ledger as LedgerError:
            switch ledger {
            case .locked: return APIError(.serviceUnavailable, "ledger-busy", "the game's record is busy; try again in a moment")
            case .full: return .storageFull
            default: return APIError(.internalServerError, "ledger-failed", "the game's record could not be written; tell the game master")
            }
        case is FileError:
            // The sessions file beside the ledger: out of space, or the folder gone read-only.
            return .storageFull
        case let http as HTTPError:
            return APIError(http.status, "http-\(http.status.code)", http.body ?? http.status.reasonPhrase)
        case is DecodingError:
            return .badRequest("bad-json", "the request body is not the JSON this endpoint takes (see /api/openapi.yaml)")
        default:
            return APIError(.internalServerError, "internal", "something went wrong on the server")
        }
    }

    static func status(for rule: GameRuleViolation) -> HTTPResponse.Status {
        switch rule {
        case .wrongPIN: .unauthorized
        case .lockedOut: .tooManyRequests
        case .unknownPlayer, .unknownCache, .unknownItem, .unknownTrade, .unknownReport, .unknownFind, .noHint: .notFound
        case .notYourTrade, .notHolding: .forbidden
        case .nameTaken, .cacheDisabled, .tradeNotOpen, .tradeExpired, .tradeItemGone, .tradeDuplicateCard,
             .reportAlreadyResolved, .findAlreadyVoided, .cacheNotFoundByPlayer, .trackableNotInCache, .sameCache:
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
