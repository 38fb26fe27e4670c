import Foundation

/// A sentence to be written in its reader's language: a key of the ``Phrasebook`` and the
/// values its template names. Made where the game decides what to say; written where the
/// reader is known (an HTTP answer in the request's language, the CLI in English).
///
/// ```swift
/// let p = Phrase("claim.claimable", ["name": .text("Pier"), "distance": .distance(12.3)])
/// p.text(in: .en)   // "Pier found: 12 m from the cache."
/// p.text(in: .pt)   // "Pier encontrada: a 12 m da cache."
/// "\(p)"            // English
/// ```
public struct Phrase: Sendable, Equatable, CustomStringConvertible {
    /// The catalogue key (`claim.too-far`, `error.name-taken`).
    public var key: String
    /// The template's placeholders, by name without braces.
    public var values: [String: Value]

    /// One value of a placeholder, written as the language writes it.
    public indirect enum Value: Sendable, Equatable {
        /// Words given as they are: a cache's name, an id.
        case text(String)
        case integer(Int)
        /// Metres, as a player reads them: `12 m`, `1.2 km` (`1,2 km` in Portuguese).
        case distance(Double)
        /// Metres to a tenth, where whole metres would hide which side of a limit it is on:
        /// `100.4 m`.
        case preciseDistance(Double)
        /// Another phrase, in the same language (a compass point, a time window).
        case phrase(Phrase)
    }

    public init(_ key: String, _ values: [String: Value] = [:]) {
        self.key = key
        self.values = values
    }

    /// The phrase written in `language` (English where its catalogue lacks the key).
    public func text(in language: Language) -> String { Phrasebook.text(self, in: language) }

    /// The phrase in English.
    public var description: String { text(in: .en) }
}
