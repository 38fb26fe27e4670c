import Foundation
@testable import GeoQR
import Testing

/// The catalogues agree (same keys, same placeholders), languages are chosen as browsers ask,
/// and sentences are written with each language's numbers and words.
@Suite struct PhrasebookTests {
    @Test func everyKeyIsInEveryLanguage() {
        let english = Set(Phrasebook.catalogue(.en).keys)
        for language in Language.allCases where language != .en {
            let own = Set(Phrasebook.catalogue(language).keys)
            #expect(english.subtracting(own).sorted() == [], "missing in \(language)")
            #expect(own.subtracting(english).sorted() == [], "only in \(language)")
        }
    }

    @Test func placeholdersMatchBetweenLanguages() {
        for (key, template) in Phrasebook.catalogue(.en) {
            for language in Language.allCases where language != .en {
                guard let other = Phrasebook.catalogue(language)[key] else { continue }
                #expect(Phrasebook.placeholders(in: other) == Phrasebook.placeholders(in: template), "\(key) in \(language)")
            }
        }
    }

    @Test func everyPhraseTheGameMakesHasAnEntry() {
        let keys = Set(Phrasebook.catalogue(.en).keys)
        for point in CompassPoint.allCases { #expect(keys.contains(point.phrase.key), "\(point)") }
        let violations: [GameRuleViolation] = [
            .nameEmpty, .nameTooLong(40), .nameHasControlCharacters, .nameTaken("Ada"), .badTeamName, .pinTooShort, .pinTooLong,
            .lockedOut(until: Date(timeIntervalSince1970: 0)), .wrongPIN(remainingTries: 2), .unknownPlayer("P1"), .unknownCache("A1"),
            .unknownItem("C1"), .unknownTrade("T1"), .unknownReport("R1"), .unknownFind("F1"), .cacheDisabled("A1"),
            .notClaimable(verdict: "too-far"), .notHolding(item: "C1", player: "P1"), .notACard("K1"), .notATrackable("C1"),
            .trackableNotInCache(trackable: "K1", cache: "A1"), .cacheNotFoundByPlayer(cache: "A1", player: "P1"), .sameCache("A1"),
            .tradeWithSelf, .tradeEmpty, .tradeItemListedTwice("C1"), .tradeNotOpen(id: "T1", state: "accepted"), .tradeExpired("T1"),
            .tradeItemGone(item: "C1"), .tradeDuplicateCard(player: "P1", cache: "A1"), .notYourTrade("T1"),
            .textTooLong(field: "text", limit: 500), .reasonMissing, .reportAlreadyResolved("R1"), .findAlreadyVoided("F1"),
        ]
        for violation in violations {
            #expect(keys.contains(violation.phrase.key), "\(violation.code)")
            for language in Language.allCases {
                let text = violation.phrase.text(in: language)
                #expect(!text.contains("{"), "\(violation.code) in \(language): \(text)")
            }
        }
        #expect(GameRuleViolation.wrongPIN(remainingTries: 4).description == "wrong PIN (4 more before a lockout)")
        #expect(GameRuleViolation.nameTaken("Ada").phrase.text(in: .pt)
                == "o nome \"Ada\" já existe neste jogo (sem distinguir maiúsculas de minúsculas): escolha outro")
    }

    @Test(arguments: [
        ("pt-BR,pt;q=0.9,en;q=0.8", Language.pt), ("en-GB,en;q=0.9,pt;q=0.8", .en), ("pt-PT", .pt), ("PT", .pt),
        ("de-DE,de;q=0.9", .en), ("", .en), ("*", .en), ("en;q=0.5, pt;q=0.6", .pt), ("pt;q=0, en", .en),
        ("de, pt ;q=0.3", .pt), ("fr;q=0.9, pt-BR;q=0.9, en;q=0.9", .pt), ("pt;q=abc, en;q=0.1", .en),
    ])
    func acceptLanguageChoosesTheLanguage(header: String, expected: Language) {
        #expect(Language(acceptLanguage: header) == expected)
    }

    @Test func noHeaderIsEnglish() {
        #expect(Language(acceptLanguage: nil) == .en)
        #expect(Language(tag: "pt-BR") == .pt && Language(tag: "es") == nil)
    }

    @Test func numbersAndPlaceholders() {
        let far = Phrase("claim.too-far", ["name": .text("Pier"), "distance": .distance(1234), "direction": .phrase(CompassPoint.ne.phrase)])
        #expect(far.text(in: .en) == "Pier is 1.2 km north-east: walk on.")
        #expect(far.text(in: .pt) == "Pier fica a 1,2 km, para nordeste: ainda falta caminhar.")
        #expect(Phrase("claim.claimable", ["name": .text("Pier"), "distance": .preciseDistance(100.44)]).text(in: .pt)
                == "Pier encontrada: a 100,4 m da cache.")
        #expect(Phrasebook.write(.distance(999.4), in: .en) == "999 m")
        #expect(Phrasebook.write(.distance(999.6), in: .en) == "1.0 km")
        #expect(Phrasebook.write(.distance(12_345), in: .pt) == "12 km")
        // A missing value stays visible; a missing key falls back to English, then to the key.
        #expect(Phrase("claim.no-location").text(in: .pt) == "O código de {name} é autêntico, mas nada indica onde foi lido.")
        #expect(Phrasebook.template("no.such.key", in: .pt) == "no.such.key")
        #expect(CompassPoint.ssw.name(in: .pt) == "su-sudoeste" && CompassPoint.ssw.name == "south-south-west")
        #expect(Phrasebook.entries(.pt).count == Phrasebook.entries(.en).count)
    }
}
