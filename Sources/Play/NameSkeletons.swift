import CICU
import GeoQR
import Synchronization

/// Unicode's UTS #39 confusable skeletons, from ICU's spoof checker (Debian's libicu, whose
/// confusables data Unicode maintains): two names with one skeleton look the same
/// (`Аda` with a Cyrillic А, and `Ada`). The one place that reaches ICU; the rule that uses it is
/// ``GeoQR/PlayerName/checkNew(_:among:skeleton:)``.
///
/// ```swift
/// NameSkeletons.skeleton("\u{410}da") == NameSkeletons.skeleton("Ada")   // true
/// ```
public enum NameSkeletons {
    /// Why ICU's spoof checker is not there, or nil when it is.
    public static var unavailable: String? {
        var message = [CChar](repeating: 0, count: Int(GEOQR_ICU_MESSAGE_SIZE))
        guard geoqr_icu_spoof_available(&message) == 0 else { return nil }
        return String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Skeletons already computed: a join compares the new name with every player's, so each
    /// name reaches ICU once, not once a join. Emptied when it holds ``rememberedLimit``.
    private static let remembered = Mutex<[String: String]>([:])
    static let rememberedLimit = 50_000

    /// The skeleton of `text`; without ICU, `text` itself, so only identical names collide.
    public static func skeleton(_ text: String) -> String {
        if let known = remembered.withLock({ $0[text] }) { return known }
        let made = computeSkeleton(text)
        remembered.withLock { known in
            if known.count >= rememberedLimit { known.removeAll(keepingCapacity: true) }
            known[text] = made
        }
        return made
    }

    private static func computeSkeleton(_ text: String) -> String {
        var utf8 = Array(text.utf8)
        var capacity = max(64, utf8.count * 4)
        for _ in 0..<2 {
            var out = [UInt8](repeating: 0, count: capacity)
            let n = utf8.withUnsafeMutableBufferPointer { input in
                out.withUnsafeMutableBufferPointer { output in
                    input.withMemoryRebound(to: CChar.self) { i in
                        output.withMemoryRebound(to: CChar.self) { o in
                            geoqr_icu_skeleton(i.baseAddress, Int32(i.count), o.baseAddress, Int32(o.count))
                        }
                    }
                }
            }
            if n < 0 { return text }
            if n <= capacity { return String(decoding: out.prefix(Int(n)), as: UTF8.self) }
            capacity = Int(n)
        }
        return text
    }
}
