import GeoQR

/// Payloads a forger might try against a hunt: mutations of genuine codes (characters
/// changed, added, dropped or swapped; a MAC spliced from another cache; a random MAC with a
/// well-formed structure; the URL form around any of these) and plain random text. The same
/// seed gives the same payloads, so a failure can be replayed.
///
/// ```swift
/// var forgeries = ForgeryCorpus(genuine: [a1, b1], seed: 7)
/// for _ in 0..<100_000 { try submit(forgeries.next()) }   // none may be accepted
/// ```
public struct ForgeryCorpus {
    /// Codes the hunt really signed; no payload returned is equivalent to one of them.
    public let genuine: [String]
    private var random: SplitMix64
    private static let base32 = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
    private static let wide = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-_/:%+ ~\u{0}\u{7F}éÅ€🙂\n\t")

    public init(genuine: [String], seed: UInt64) {
        precondition(!genuine.isEmpty, "a corpus mutates genuine codes")
        self.genuine = genuine
        self.random = SplitMix64(seed: seed)
    }

    /// The next forged payload.
    public mutating func next() -> String {
        while true {
            let candidate = make()
            if !genuine.contains(where: { Self.equivalent(candidate, $0) }) { return candidate }
        }
    }

    /// True when a server that upper-cases codes and trims blanks would read `payload` as the
    /// genuine `code`: the same signed text, whatever host a URL form names.
    public static func equivalent(_ payload: String, _ code: String) -> Bool {
        codePart(payload) == codePart(code)
    }

    private static func codePart(_ payload: String) -> String {
        let upper = payload.uppercased().trimmingBlanks()
        guard upper.contains("://"), let range = upper.range(of: CacheCode.claimPath, options: .backwards) else { return upper }
        return String(upper[range.upperBound...])
    }

    private mutating func make() -> String {
        let code = genuine[pick(genuine.count)]
        switch pick(10) {
        case 0: return randomText(length: pick(80), from: Self.wide)
        case 1: return withRandomMAC(code)
        case 2: return spliced(code, genuine[pick(genuine.count)])
        case 3: return "HTTPS://192.168.1.20:8443/C/" + mutated(code)
        default: return mutated(code)
        }
    }

    /// One to three edits: substitute, insert, delete, or swap neighbours.
    private mutating func mutated(_ code: String) -> String {
        var chars = Array(code)
        for _ in 0...pick(3) {
            let i = pick(max(chars.count, 1))
            switch pick(4) {
            case 0 where !chars.isEmpty: chars[i] = randomCharacter()
            case 1: chars.insert(randomCharacter(), at: min(i, chars.count))
            case 2 where !chars.isEmpty: chars.remove(at: i)
            case 3 where chars.count > i + 1: chars.swapAt(i, i + 1)
            default: chars.append(randomCharacter())
            }
        }
        return String(chars)
    }

    private mutating func randomCharacter() -> Character {
        pick(2) == 0 ? Self.base32[pick(Self.base32.count)] : Self.wide[pick(Self.wide.count)]
    }

    private mutating func withRandomMAC(_ code: String) -> String {
        String(code.dropLast(16)) + randomText(length: 16, from: Self.base32)
    }

    /// The signed part of one code with the MAC of another.
    private mutating func spliced(_ code: String, _ other: String) -> String {
        String(code.dropLast(16)) + String(other.suffix(16))
    }

    private mutating func randomText(length: Int, from alphabet: [Character]) -> String {
        String((0..<length).map { _ in alphabet[pick(alphabet.count)] })
    }

    private mutating func pick(_ n: Int) -> Int { Int(random.next() % UInt64(max(n, 1))) }
}

/// A small, fast generator with a seed (Steele, Lea and Flood's SplitMix64): the same seed, the
/// same sequence, for the corpus here and the ledger's differential test.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

private extension String {
    func trimmingBlanks() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
