/// What a "needs maintenance" report says is wrong with a cache.
///
/// ```swift
/// let kind = ReportKind(rawValue: "unreadable")   // .unreadable
/// try Reports.checkText("The QR is faded")
/// ```
public enum ReportKind: String, Sendable, Codable, CaseIterable {
    case missing, damaged, unreadable
    case wrongCoordinates = "wrong-coordinates"
}

/// The rules for reports and for the game master's acts that carry free text.
public enum Reports {
    /// A report's text fits a phone screen; a reason fits a log line.
    public static let maxTextLength = 1000
    public static let maxReasonLength = 200

    /// Checks a report's text: ``PlayerText/report``'s bytes and marks, then its length in
    /// characters (the byte cap first, so a huge text is refused before it is counted).
    public static func checkText(_ text: String) throws(GameRuleViolation) {
        try PlayerText.report.check(text)
        guard text.count <= maxTextLength else { throw .textTooLong(field: "a report", limit: maxTextLength) }
    }

    /// A game-master act needs a reason a later reader can understand, and not a novel.
    public static func checkReason(_ reason: String) throws(GameRuleViolation) -> String {
        try PlayerText.reason.check(reason)
        let trimmed = reason.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .reasonMissing }
        guard trimmed.count <= maxReasonLength else { throw .textTooLong(field: "a reason", limit: maxReasonLength) }
        return trimmed
    }
}
