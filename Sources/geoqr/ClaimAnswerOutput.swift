import Foundation
import GeoQR
import Play

/// How `scan`, `claim` and `watch` print a claim answer: with `--json`, the answer's one JSON
/// shape on a line, after the keys that say where it came from (`file`, `frame`); else its line.
enum ClaimAnswerOutput {
    /// `noLocation` says what to do when nothing says where a code was scanned.
    static func print(_ answer: ClaimAnswer, json: Bool, from source: [(key: StaticString, value: JSONScalar)], prefix: String,
                      noLocation: String = "nothing says where it was scanned; pass --at LAT,LON") {
        if json {
            var writer = JSONWriter()
            answer.write(to: &writer, extra: source)
            FileHandle.standardOutput.write(Data(writer.bytes + [UInt8(ascii: "\n")]))
        } else {
            Swift.print("\(prefix): \(text(answer, noLocation: noLocation))")
        }
    }

    /// The answer's line, with what a person at a desk needs next.
    static func text(_ a: ClaimAnswer, noLocation: String) -> String {
        let label = [a.cache, a.cacheName].compactMap { $0 }.joined(separator: " ")
        switch a.outcome {
        case .found:
            let card = a.card.map { ", card \($0)" } ?? " (you already hold its card)"
            return "\(label): found (\(a.find ?? ""), \(a.points ?? 0) points\(card)): \(a.message ?? "")"
        case .alreadyFound:
            return "\(a.line): \(a.message ?? "")"
        case .attempt:
            return "\(a.line) (kept as an attempt)"
        case nil:
            return a.verdict == .noLocation ? "\(label): no-location (\(noLocation))" : a.line
        }
    }
}
