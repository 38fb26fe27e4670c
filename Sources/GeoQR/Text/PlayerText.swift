/// The one rule for free text a player writes (a report's text, a player or team name): capped
/// in UTF-8 bytes, in combining marks on one character and in combining marks in all, with no
/// control characters (a line break only where the field has lines) and no bidirectional
/// override, embedding or isolate controls. Checked before anything is stored, because the
/// ledger keeps what it is given for good.
///
/// A count of characters alone does not bound a text: `"x"` followed by 9,000 combining accents
/// is one character of 18 KB, so 1,000 such "characters" are 18 MB. The byte cap bounds what the
/// ledger keeps; the mark caps keep a text that fits from covering the lines around it.
///
/// ```swift
/// try PlayerText.report.check("The QR is faded\nby the bench")   // fine
/// try PlayerText.report.check("x" + String(repeating: "\u{301}", count: 9_000))
///     // throws .textTooLarge(field: "a report", maxBytes: 4096)
/// ```
public struct PlayerText: Sendable, Equatable {
    /// How the field is named in a refusal ("a report has at most 4096 bytes").
    public var field: String
    public var maxBytes: Int
    /// Combining marks (general categories Mn, Mc, Me) after one base character. Real scripts
    /// stack few: Vietnamese two, Devanagari and Tibetan three or four; a "Zalgo" text dozens.
    public var maxMarksPerCharacter: Int
    public var maxMarks: Int
    /// Whether tab, line feed and carriage return are allowed (a report has lines; a name not).
    public var allowsLineBreaks: Bool

    public init(field: String, maxBytes: Int, maxMarksPerCharacter: Int, maxMarks: Int, allowsLineBreaks: Bool) {
        self.field = field
        self.maxBytes = maxBytes
        self.maxMarksPerCharacter = maxMarksPerCharacter
        self.maxMarks = maxMarks
        self.allowsLineBreaks = allowsLineBreaks
    }

    /// A "needs maintenance" report: 1,000 characters (``Reports/maxTextLength``) of any script
    /// fit in 4 KB (Portuguese about 1.1 KB, Japanese 3 KB).
    public static let report = PlayerText(field: "a report", maxBytes: 4096, maxMarksPerCharacter: 8,
                                          maxMarks: Reports.maxTextLength, allowsLineBreaks: true)
    /// A player's name: 32 characters (``PlayerName/maxLength``) of four bytes each; a family
    /// emoji (seven scalars joined by ZWJ) is 25 bytes.
    public static let playerName = PlayerText(field: "a player name", maxBytes: 128, maxMarksPerCharacter: 4,
                                              maxMarks: PlayerName.maxLength, allowsLineBreaks: false)
    /// A team's name, as a player's.
    public static let teamName = PlayerText(field: "a team name", maxBytes: 128, maxMarksPerCharacter: 4,
                                            maxMarks: PlayerName.maxLength, allowsLineBreaks: false)
    /// A game master's reason or resolution (``Reports/maxReasonLength`` characters).
    /// An answer to a station's question: a word or a short phrase (``Challenge/maxAnswerLength``).
    public static let answer = PlayerText(field: "an answer", maxBytes: 400, maxMarksPerCharacter: 4,
                                          maxMarks: 16, allowsLineBreaks: false)
    public static let reason = PlayerText(field: "a reason", maxBytes: 1024, maxMarksPerCharacter: 8,
                                          maxMarks: Reports.maxReasonLength, allowsLineBreaks: true)

    /// Throws the first rule `text` breaks. The byte count comes first and costs nothing for a
    /// native string, so an oversized text is refused before it is read.
    public func check(_ text: String) throws(GameRuleViolation) {
        guard text.utf8.count <= maxBytes else { throw .textTooLarge(field: field, maxBytes: maxBytes) }
        var run = 0, total = 0
        for scalar in text.unicodeScalars {
            let properties = scalar.properties
            switch properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                run += 1
                total += 1
                guard run <= maxMarksPerCharacter, total <= maxMarks else {
                    throw .tooManyMarks(field: field, perCharacter: maxMarksPerCharacter, total: maxMarks)
                }
                continue
            case .control:
                let lineBreak = scalar == "\n" || scalar == "\r" || scalar == "\t"
                guard allowsLineBreaks && lineBreak else { throw .textHasControlCharacters(field: field) }
            case .lineSeparator, .paragraphSeparator:
                guard allowsLineBreaks else { throw .textHasControlCharacters(field: field) }
            default:
                if Self.isBidiControl(scalar) { throw .textHasControlCharacters(field: field) }
            }
            run = 0
        }
    }

    /// The characters that reorder the text around them (LRE, RLE, PDF, LRO, RLO, LRI, RLI,
    /// FSI, PDI): what "Trojan source" hides text with. The marks LRM, RLM and ALM only mark.
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }
}
