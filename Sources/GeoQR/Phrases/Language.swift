import Foundation

/// A language the server writes for players in. One catalogue each (see ``Phrasebook``).
///
/// ```swift
/// Language(acceptLanguage: "pt-BR,pt;q=0.9,en;q=0.8")   // .pt
/// Language(acceptLanguage: "de-DE")                      // .en: the default
/// Language(tag: "pt-PT")                                 // .pt
/// ```
public enum Language: String, CaseIterable, Sendable, Codable {
    case en, pt

    /// The language of a BCP 47 tag by its primary subtag (`pt-BR` is `pt`); nil for one
    /// without a catalogue.
    public init?(tag: some StringProtocol) {
        let primary = tag.split(separator: "-", maxSplits: 1).first ?? ""
        guard let language = Language(rawValue: primary.trimmingCharacters(in: .whitespaces).lowercased()) else { return nil }
        self = language
    }

    /// The language an `Accept-Language` header prefers among those with a catalogue: the
    /// highest `q` wins, the earlier of equals; `q=0` means "not this one". English when the
    /// header is absent or names none of them.
    public init(acceptLanguage header: String?) {
        var best: (q: Double, language: Language)?
        for item in (header ?? "").split(separator: ",") {
            let parts = item.split(separator: ";")
            guard let tag = parts.first, let language = Language(tag: tag) else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0].lowercased() == "q" { q = Double(pair[1]) ?? 0 }
            }
            guard q > 0, q <= 1 else { continue }
            if q > best?.q ?? 0 { best = (q, language) }
        }
        self = best?.language ?? .en
    }

    /// What separates a number's whole part from its decimals: `1.2 km`, `1,2 km`.
    public var decimalSeparator: String {
        switch self {
        case .en: "."
        case .pt: ","
        }
    }
}
