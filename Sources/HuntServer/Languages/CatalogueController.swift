import Foundation
import GeoQR
import Hummingbird

/// The whole phrase catalogue of a language for the web app: `GET /i18n/pt.json` answers
/// `{"app.join": "Entrar", "compass.ne": "nordeste", …}`, English filling any gap, from the
/// catalogue compiled into the binary. Public: the join page needs it before anyone joins.
struct CatalogueController {
    /// Each language's catalogue as JSON (sorted keys), made once.
    static let files: [Language: HeldFile] = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var files: [Language: HeldFile] = [:]
        for language in Language.allCases {
            let bytes = (try? encoder.encode(Phrasebook.entries(language))) ?? Data("{}".utf8)
            // no-cache: kept, but asked again (an ETag answer) so a new binary's words show at once.
            files[language] = HeldFile(bytes: bytes, type: "application/json; charset=utf-8", cacheControl: "no-cache")
        }
        return files
    }()

    func addRoutes(to router: Router<HuntRequestContext>) {
        router.get("i18n/:file", use: catalogue)
    }

    @Sendable func catalogue(_ request: Request, context: HuntRequestContext) async throws -> Response {
        let file = try context.parameters.require("file")
        guard file.hasSuffix(".json"), let language = Language(rawValue: String(file.dropLast(5))), let held = Self.files[language] else {
            let known = Language.allCases.map { "/i18n/\($0.rawValue).json" }.joined(separator: ", ")
            throw APIError.notFound("no-language", "no catalogue \(file.prefix(40)); there are \(known)")
        }
        return held.response(to: request)
    }
}
