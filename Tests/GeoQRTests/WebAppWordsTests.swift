import Foundation
import GeoQR
import Testing

/// Every word the web app shows comes from the catalogues: each key its pages and scripts
/// name (`data-i18n…` attributes, `t("app.…")` calls, and the keys they build from the game's
/// own vocabularies) is in both English and Portuguese, with the same placeholders.
@Suite("The web app's words")
struct WebAppWordsTests {
    static let web = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../assets/web").standardized

    /// The keys named literally in the web app's HTML and JavaScript.
    static func namedKeys() throws -> Set<String> {
        var keys: Set<String> = []
        let files = try FileManager.default.contentsOfDirectory(atPath: web.path).filter { $0.hasSuffix(".html") || $0.hasSuffix(".js") }
        #expect(files.count >= 6, "the web app's files are found")
        let patterns = [#/data-i18n(?:-label|-title)?="([^"]+)"/#, #/\bt\("(app\.[A-Za-z.\-]+)"/#, #/"(app\.[A-Za-z]+\.[A-Za-z.\-]+)"/#]
        for file in files {
            let text = try String(contentsOf: web.appendingPathComponent(file), encoding: .utf8)
            for pattern in patterns {
                for match in text.matches(of: pattern) where !match.1.hasSuffix(".") { keys.insert(String(match.1)) }
            }
        }
        return keys
    }

    /// The keys the scripts build from the game's vocabularies (`"app.verdict." + verdict`).
    static let builtKeys: Set<String> = Set(
        Verdict.allCases.map { "app.verdict.\($0.rawValue)" }
        + TradeState.allCases.map { "app.trades.state.\($0.rawValue)" }
        + ClaimMethod.allCases.map { "app.gm.method.\($0.rawValue)" }
        + ["found", "unfound", "closed"].map { "app.map.cache.\($0)" }
        + ReportKind.allCases.map { "app.report.\($0)" }
        + Course.Kind.allCases.map { "app.course.kind.\($0.rawValue)" }
        + CourseStatus.allCases.map { "app.course.status.\($0.rawValue)" })   // the case's name: wrongCoordinates

    @Test func everyKeyTheWebAppNamesIsInBothCataloguesWithTheSamePlaceholders() throws {
        let keys = try Self.namedKeys().union(Self.builtKeys)
        #expect(keys.count > 150)
        for key in keys.sorted() {
            let english = Phrasebook.catalogue(.en)[key], portuguese = Phrasebook.catalogue(.pt)[key]
            #expect(english != nil, "\(key) is not in the English catalogue")
            #expect(portuguese != nil, "\(key) is not in the Portuguese catalogue")
            if let english, let portuguese {
                #expect(Phrasebook.placeholders(in: english) == Phrasebook.placeholders(in: portuguese), "\(key)'s placeholders differ")
            }
        }
    }

    @Test func thePagesCarryNoWordsOfTheirOwn() throws {
        // Text between tags in the HTML is only punctuation, ids or the product's name: every
        // sentence is filled in from the catalogue.
        for file in ["index.html", "admin.html", "claim.html", "board.html"] {
            let html = try String(contentsOf: Self.web.appendingPathComponent(file), encoding: .utf8)
            let body = html[html.range(of: "<body")!.lowerBound...]
            for match in body.matches(of: #/>([^<>]*[A-Za-z]{3,}[^<>]*)</#) {
                let words = match.1.trimmingCharacters(in: .whitespacesAndNewlines)
                #expect(["GeoQR"].contains(words), "\(file) writes \"\(words)\" itself")
            }
        }
    }
}
