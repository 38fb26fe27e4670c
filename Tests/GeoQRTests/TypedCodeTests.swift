import Foundation
import Testing
@testable import GeoQR

/// The short code printed under every QR, for a phone that cannot scan.
@Suite struct TypedCodeTests {
    let secret = HuntSecret(bytes: (0..<32).map { UInt8($0) })!
    let hunt = Hunt(id: "DEMO", name: "Demo", caches: [
        Cache(id: "A1", name: "Gate", coordinate: Coordinate(latitude: 40.6303, longitude: -8.6575)),
        Cache(id: "B-2", name: "Pond", coordinate: Coordinate(latitude: 40.6279, longitude: -8.6599)),
    ])

    @Test func aTypedCodeIsTheCacheIdAndEightUnambiguousCharacters() throws {
        let text = TypedCode.text(hunt: "demo", cache: "b-2", secret: secret)
        #expect(text.wholeMatch(of: /B-2-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/) != nil, "\(text)")
        #expect(try hunt.verify(text, secret: secret).get().id == "B-2")
        #expect(!CacheCode.payload(hunt: "DEMO", cache: "B-2", secret: secret).contains(text.suffix(9).replacingOccurrences(of: "-", with: "")),
                "its MAC is not a piece of the QR's")
    }

    @Test func typingIsForgivenItsCaseSpacesHyphensAndLookAlikes() throws {
        let text = TypedCode.text(hunt: "DEMO", cache: "A1", secret: secret)
        let mac = String(text.dropFirst(3)).replacingOccurrences(of: "-", with: "")
        let spellings = [text.lowercased(), "A1 \(mac.prefix(4)) \(mac.suffix(4))", " A1-\(mac) ",
                         "A1-" + mac.replacingOccurrences(of: "0", with: "O").replacingOccurrences(of: "1", with: "l")]
        for spelling in spellings {
            #expect(try hunt.verify(spelling, secret: secret).get().id == "A1", "\(spelling)")
            #expect(TypedCode(typed: spelling)?.text == text)
        }
        #expect(TypedCode(typed: "a1\(mac.lowercased())")?.text == text, "in the typing box, no separator is needed")
        #expect(TypedCode(reading: "a1\(mac.lowercased())") == nil, "elsewhere it is")
        for malformed in ["A1", "A1-1234567", "-12345678", "A1-1234-567U", "A1_12345678", "hello world", "HELLOWORLD",
                          "Visit the museum", "GQ1.DEMO.A1.K3J5M2QX7P4RT6WA"] {
            #expect(TypedCode(reading: malformed) == nil, "\(malformed)")
        }
    }

    @Test func anotherSecretOrCacheRejectsIt() {
        let text = TypedCode.text(hunt: "DEMO", cache: "A1", secret: secret)
        #expect(hunt.verify(text, secret: HuntSecret.random()).failureValue == .badMAC)
        let swapped = "B-2" + text.dropFirst(2)
        #expect(hunt.verify(swapped, secret: secret).failureValue == .badMAC)
        let otherHunt = TypedCode.text(hunt: "OTHER", cache: "A1", secret: secret)
        #expect(hunt.verify(otherHunt, secret: secret).failureValue == .badMAC, "the hunt is part of what is signed")
        let gone = TypedCode.text(hunt: "DEMO", cache: "Z9", secret: secret)
        #expect(hunt.verify(gone, secret: secret).failureValue == .unknownCache("Z9"))
    }

    /// 40 bits against 100,000 guesses: the chance of one hit is under one in ten million.
    @Test func aHundredThousandRandomTypedCodesAreAllRejected() {
        var generator = SystemRandomNumberGenerator()
        let symbols = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        var accepted: [String] = []
        for i in 0..<100_000 {
            let cache = i % 2 == 0 ? "A1" : "B-2"
            let guess = cache + "-" + String((0..<8).map { _ in symbols.randomElement(using: &generator)! })
            if case .success = hunt.verify(guess, secret: secret) { accepted.append(guess) }
        }
        #expect(accepted.isEmpty, "\(accepted)")
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
