import Foundation

/// What a station asks of a player who found it: a question, answered on the phone, or a
/// photo task the game master approves. Revealed only to the cache's finders.
///
/// A question is free (the answer typed, normalised and compared with the accepted ones) or
/// multiple choice (one of `choices`). A right answer earns `points`; each wrong one costs
/// `penalty`, and after `tries` wrong answers the question is closed.
///
/// ```swift
/// let q = Challenge(kind: .question(prompt: "Year on the plaque?", answers: ["1911"], choices: []), points: 10)
/// q.accepts(" 1911 ")   // true
/// ```
public struct Challenge: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case question(prompt: String, answers: [String], choices: [String])
        case photo(task: String)
    }

    public var kind: Kind
    public var points: Int
    /// Points lost per wrong answer (questions only).
    public var penalty: Int
    /// Wrong answers allowed before the question closes (questions only).
    public var tries: Int

    public init(kind: Kind, points: Int, penalty: Int = 0, tries: Int = Challenge.standardTries) {
        self.kind = kind
        self.points = points
        self.penalty = penalty
        self.tries = tries
    }

    /// The photo task's words, when the challenge is one (nil for a question).
    public var photoTask: String? {
        if case .photo(let task) = kind { return task }
        return nil
    }

    /// Three tries: enough for a typo, too few to guess a number.
    public static let standardTries = 3
    /// The longest answer a phone may send (characters): a word or a short phrase.
    public static let maxAnswerLength = 100

    /// Whether `answer` is right: a free answer equal to an accepted one once both are
    /// normalised (``normalised(_:)``); a multiple choice equal to the first accepted choice's
    /// text, or its number (1 = the first choice).
    public func accepts(_ answer: String) -> Bool {
        guard case .question(_, let answers, let choices) = kind else { return false }
        let given = Self.normalised(answer)
        guard !given.isEmpty else { return false }
        if !choices.isEmpty, let n = Int(given), (1...choices.count).contains(n) {
            return answers.contains { Self.normalised($0) == Self.normalised(choices[n - 1]) }
        }
        return answers.contains { Self.normalised($0) == given }
    }

    /// An answer as it is compared: letters without case or accents, digits, and single spaces
    /// between words; punctuation dropped ("  São  Tomé!" → "sao tome").
    public static func normalised(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var words: [String] = []
        var word = ""
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                word.unicodeScalars.append(scalar)
            } else if !word.isEmpty, CharacterSet.whitespacesAndNewlines.contains(scalar) || CharacterSet.punctuationCharacters.contains(scalar) {
                words.append(word)
                word = ""
            }
        }
        if !word.isEmpty { words.append(word) }
        return words.joined(separator: " ").lowercased()
    }
}
