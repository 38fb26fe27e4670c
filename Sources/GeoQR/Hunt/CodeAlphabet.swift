/// What a code can carry in an id: QR alphanumeric mode without its separators, so a code
/// stays in the compact mode that fits a small QR symbol.
public enum CodeAlphabet {
    /// Letters, digits and hyphen; ids compare ignoring case and are kept upper case.
    public static let idCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
    public static let maxHuntIDLength = 16
    public static let maxCacheIDLength = 12

    /// The id in upper case, or why it cannot be carried by a code.
    public static func canonicalID(_ raw: String, maxLength: Int) -> Result<String, IDProblem> {
        let upper = raw.uppercased()
        if upper.isEmpty { return .failure(.empty) }
        if upper.count > maxLength { return .failure(.tooLong(maxLength)) }
        if let bad = upper.first(where: { !idCharacters.contains($0) }) { return .failure(.character(bad)) }
        return .success(upper)
    }

    public enum IDProblem: Error, Equatable, CustomStringConvertible {
        case empty
        case tooLong(Int)
        case character(Character)

        public var description: String {
            switch self {
            case .empty: "is empty"
            case .tooLong(let n): "is longer than \(n) characters"
            case .character(let c): "has \"\(c)\", outside the code alphabet (letters A-Z, digits, hyphen)"
            }
        }
    }
}
