import Foundation

/// Every sentence the game writes for players, one catalogue per language: key → template
/// with `{name}` placeholders (`Catalogue+en.swift`, `Catalogue+pt.swift`). The web app's own
/// strings live here too, under `app.` keys, so one binary carries every word of the game.
///
/// ```swift
/// Phrasebook.template("compass.ne", in: .pt)   // "nordeste"
/// Phrasebook.text(Phrase("error.trade-expired", ["trade": .text("T3")]), in: .pt)   // "a troca T3 expirou"
/// ```
public enum Phrasebook {
    /// A language's own catalogue, as written (some keys may still be missing).
    public static func catalogue(_ language: Language) -> [String: String] {
        switch language {
        case .en: english
        case .pt: portuguese
        }
    }

    /// A language's catalogue with English filling its gaps: every key there is.
    public static func entries(_ language: Language) -> [String: String] {
        english.merging(catalogue(language)) { _, own in own }
    }

    /// The template of `key` in `language`, else in English, else the key itself (a gap
    /// that shows, rather than an empty answer).
    public static func template(_ key: String, in language: Language) -> String {
        catalogue(language)[key] ?? english[key] ?? key
    }

    /// A phrase written out: its template with each `{name}` replaced by its value, in
    /// `language`. A placeholder without a value stays as it is.
    public static func text(_ phrase: Phrase, in language: Language) -> String {
        let template = template(phrase.key, in: language)
        guard template.contains("{") else { return template }
        var out = "", rest = template[...]
        while let open = rest.firstIndex(of: "{") {
            out += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else { break }
            let name = String(rest[rest.index(after: open)..<close])
            if let value = phrase.values[name] { out += write(value, in: language) } else { out += rest[open...close] }
            rest = rest[rest.index(after: close)...]
        }
        return out + rest
    }

    /// The names of a template's placeholders: `"{name} is {distance}"` → `["name", "distance"]`.
    public static func placeholders(in template: String) -> Set<String> {
        var names: Set<String> = [], rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.insert(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    static func write(_ value: Phrase.Value, in language: Language) -> String {
        switch value {
        case .text(let text): return text
        case .integer(let n): return String(n)
        case .phrase(let phrase): return text(phrase, in: language)
        case .preciseDistance(let metres): return decimal(metres, places: 1, in: language) + " m"
        case .distance(let metres):
            guard metres.isFinite else { return "? m" }
            if metres.rounded() < 1000 { return "\(Int(metres.rounded())) m" }
            if metres < 9_950 { return decimal(metres / 1000, places: 1, in: language) + " km" }
            return "\(Int((metres / 1000).rounded())) km"
        }
    }

    /// `value` to `places` decimals with the language's separator.
    static func decimal(_ value: Double, places: Int, in language: Language) -> String {
        let text = String(format: "%.\(places)f", value)
        return language.decimalSeparator == "." ? text : text.replacingOccurrences(of: ".", with: language.decimalSeparator)
    }
}
