import Foundation
import Testing
@testable import GeoQR

/// The patterns the offline page names a kept claim's cache with, read against codes the
/// Swift types make (the page runs them as ECMAScript; these run them as ICU, which shares the
/// syntax they use).
@Suite struct CodePatternsTests {
    /// The cache id the page would show for `code`: the first pattern that matches the code
    /// upper-cased without white space, its group 1.
    func cacheID(of code: String) throws -> String? {
        let text = code.uppercased().filter { !$0.isWhitespace }
        for pattern in CodePatterns.cacheID {
            let regex = try NSRegularExpression(pattern: pattern)
            if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
               let range = Range(match.range(at: 1), in: text) {
                return String(text[range])
            }
        }
        return nil
    }

    @Test(arguments: ["A1", "B-2", "NORTH-GATE-9", "7", "X-1-2-3", "ZZZZZZZZZZZZ"])
    func everyFormOfACodeNamesItsCache(cache: String) throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let secret = HuntSecret(bytes: (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })!
            let short = CacheCode.payload(hunt: "DEMO-HUNT", cache: cache, secret: secret)
            let url = CacheCode.payload(hunt: "DEMO-HUNT", cache: cache, secret: secret, baseURL: "https://hunt.example:8443/")
            let typed = TypedCode.text(hunt: "DEMO-HUNT", cache: cache, secret: secret)
            let unhyphenated = cache + String(typed.dropFirst(cache.count + 1)).replacingOccurrences(of: "-", with: "")
            let spaced = typed.lowercased().replacingOccurrences(of: "-", with: " ")
            #expect(try cacheID(of: short) == cache, "\(short)")
            #expect(try cacheID(of: url) == cache, "\(url)")
            #expect(try cacheID(of: typed) == cache, "\(typed)")
            #expect(try cacheID(of: unhyphenated) == cache, "\(unhyphenated)")
            #expect(TypedCode(typed: unhyphenated)?.cacheID == cache, "the server reads it too")
            // Spaces for hyphens: the page drops white space, so the id's own hyphens stay.
            if !cache.contains("-") { #expect(try cacheID(of: spaced) == cache, "\(spaced)") }
        }
    }

    @Test func theIDCharacterClassIsTheCodeAlphabet() throws {
        let regex = try NSRegularExpression(pattern: "^\(CodePatterns.id)$")
        let every = (0..<128).compactMap(UnicodeScalar.init).map(Character.init)
        let accepted = Set(every.filter { regex.firstMatch(in: String($0), range: NSRange(location: 0, length: 1)) != nil })
        #expect(accepted == CodeAlphabet.idCharacters)
        #expect(CodePatterns.signed.hasPrefix(CacheCode.prefix))
    }

    @Test func aTextThatIsNoCodeNamesNoCache() throws {
        #expect(try cacheID(of: "https://example.org/") == nil)
        #expect(try cacheID(of: "") == nil)
    }
}
