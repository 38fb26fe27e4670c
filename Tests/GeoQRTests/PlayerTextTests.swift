import Foundation
import GeoQR
import Testing

/// The one rule for free text a player writes (issue 24 §2) and the rules for names (§5), as
/// the domain states them: bytes, combining marks, control, format and direction characters,
/// names shaped like player ids.
@Suite("Player text and names")
struct PlayerTextTests {
    /// The report of the issue: "x" and 9,000 combining accents, 1,000 times: 18 MB that a
    /// count of characters calls 1,000. Refused by its bytes, before its marks are read.
    @Test func theEighteenMegabyteReportIsRefusedByItsBytes() throws {
        let zalgo = String(repeating: "x" + String(repeating: "\u{301}", count: 9_000), count: 1_000)
        #expect(zalgo.count == 1_000)
        #expect(throws: GameRuleViolation.textTooLarge(field: "a report", maxBytes: 4096)) { try Reports.checkText(zalgo) }
        // One such "character" fits in the bytes and is refused for its marks.
        let one = "x" + String(repeating: "\u{301}", count: 1_000)
        #expect(throws: GameRuleViolation.tooManyMarks(field: "a report", perCharacter: 8, total: 1000)) { try Reports.checkText(one) }
        #expect(throws: GameRuleViolation.tooManyMarks(field: "a report", perCharacter: 8, total: 1000)) {
            try Reports.checkText("x" + String(repeating: "\u{301}", count: 9))
        }
        #expect(GameRuleViolation.textTooLarge(field: "a report", maxBytes: 4096).description == "a report has at most 4096 bytes of UTF-8")
    }

    @Test func ordinaryReportsInManyScriptsPass() throws {
        for text in [
            "O código QR está desbotado e a caixa partiu-se; não se consegue ler.\nJunto ao banco.",
            "Το κουτί λείπει από τη γέφυρα.",
            "QRコードが読めません。箱が壊れています。",
            "क्यूआर कोड फीका पड़ गया है, डिब्बा टूटा हुआ है।",
            "Mã QR bị mờ, hộp bị hỏng.",   // Vietnamese, decomposed too:
            "Mã QR bị mờ".decomposedStringWithCanonicalMapping,
            "བསྒྲུབས་ཟིན། ཀ་ཁ་ག",
            "Broken 👨‍👩‍👧‍👦 🏳️‍🌈 👍🏽\tok",
            String(repeating: "ã", count: 1_000),
        ] {
            try Reports.checkText(text)
        }
    }

    @Test func controlAndOverrideCharactersAreRefusedInAReport() {
        #expect(throws: GameRuleViolation.textHasControlCharacters(field: "a report")) { try Reports.checkText("bell\u{7}") }
        #expect(throws: GameRuleViolation.textHasControlCharacters(field: "a report")) { try Reports.checkText("evil \u{202E}txt.exe") }
        #expect(throws: GameRuleViolation.textHasControlCharacters(field: "a report")) { try Reports.checkText("isolate \u{2067}x") }
        #expect(throws: GameRuleViolation.textHasControlCharacters(field: "a player name")) {
            try PlayerText.playerName.check("two\nlines")
        }
    }

    /// The names of the issue, each refused with its reason.
    @Test func theIssuesNamesAreRefused() {
        #expect(throws: GameRuleViolation.nameHasInvisibleCharacters) { try PlayerName.check("A\u{200B}da", taken: []) }
        #expect(throws: GameRuleViolation.nameHasInvisibleCharacters) { try PlayerName.check("\u{202E}adA", taken: []) }
        #expect(throws: GameRuleViolation.nameLooksLikeID("P160")) { try PlayerName.check("P160", taken: []) }
        #expect(throws: GameRuleViolation.nameLooksLikeID("p7")) { try PlayerName.check("p7", taken: []) }
        // Fullwidth Ｐ１６０ is P160 once NFKC has read it.
        #expect(throws: GameRuleViolation.nameLooksLikeID("P160")) { try PlayerName.check("Ｐ１６０", taken: []) }
        #expect(throws: GameRuleViolation.nameHasInvisibleCharacters) { try PlayerName.check("Ada\u{2066}", taken: []) }
        #expect(throws: GameRuleViolation.nameHasInvisibleCharacters) { try PlayerName.check("A\u{AD}da", taken: []) }   // soft hyphen
        #expect(throws: GameRuleViolation.nameHasInvisibleCharacters) { try PlayerName.check("Ada\u{E000}", taken: []) }  // private use
        #expect(throws: GameRuleViolation.nameHasControlCharacters) { try PlayerName.check("A\tda", taken: []) }
        #expect(throws: GameRuleViolation.tooManyMarks(field: "a player name", perCharacter: 4, total: 32)) {
            try PlayerName.check("Z" + String(repeating: "\u{336}", count: 5), taken: [])
        }
        #expect(throws: GameRuleViolation.textTooLarge(field: "a player name", maxBytes: 128)) {
            try PlayerName.check(String(repeating: "a\u{301}", count: 400), taken: [])
        }
        #expect(throws: GameRuleViolation.nameTaken("ADA")) { try PlayerName.check("ADA", taken: ["ada"]) }
        #expect(GameRuleViolation.nameConfusable("Аda", with: "Ada").description
                == "the name \"Аda\" looks the same as the player Ada: choose another")
        #expect(GameRuleViolation.nameConfusable("Аda", with: "Ada").phrase.text(in: .pt)
                == "o nome \"Аda\" parece igual ao do jogador Ada: escolha outro")
    }

    @Test func ordinaryNamesInManyScriptsPass() throws {
        let names = ["João Simões", "Ana-Sofia d'Ávila", "Ελένη", "さくら", "山田太郎", "Владимир", "محمد",
                     "प्रियंका", "Nguyễn Thị Minh Khai", "👨‍👩‍👧‍👦 family", "🏳️‍🌈", "👍🏽 Bo", "Troop 12 — Red Squirrels",
                     "Pia", "P-7", "P7a", "Paulo 160", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"]
        for name in names {
            let shown = try PlayerName.check(name, taken: [])
            #expect(shown == name.precomposedStringWithCompatibilityMapping)
        }
        // NFKC: a ligature and fullwidth letters are stored as the letters they stand for.
        #expect(try PlayerName.check("ﬁona", taken: []) == "fiona")
        #expect(try PlayerName.check("Ａｄａ", taken: []) == "Ada")
        #expect(try TeamName.check(" Ｒｅｄ ") == "Red")
        #expect(throws: GameRuleViolation.badTeamName) { try TeamName.check("Re\u{200B}d") }
    }

    /// A checked name's skeleton is compared with the existing players'; this test's skeleton
    /// is a stand-in (the server's is ICU's, tested in PlayTests).
    @Test func aNameWhoseSkeletonIsAnExistingNameOrAnIdIsRefused() {
        let folding: (String) -> String = { $0.replacingOccurrences(of: "0", with: "O") }
        #expect(throws: GameRuleViolation.nameConfusable("B0b", with: "BOb")) {
            try PlayerName.checkNew("B0b", among: ["BOb"], skeleton: folding)
        }
        #expect(throws: GameRuleViolation.nameLooksLikeID("p1O")) {
            try PlayerName.checkNew("p1O", among: [], skeleton: { $0.replacingOccurrences(of: "O", with: "0") })
        }
        #expect((try? PlayerName.checkNew("Bob", among: ["Ada"], skeleton: folding)) == "Bob")
    }
}
